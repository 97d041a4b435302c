// ESLint for the site's browser modules (site/js), run by `make lint` from the repository root:
// ES modules loaded with <script type="module">, in the browser, under the recommended rules.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["site/js/**/*.js"],
    languageOptions: {
      ecmaVersion: "latest",
      sourceType: "module",
      globals: globals.browser,
    },
  },
];
