// Django's JavaScript catalog (/jsi18n/, loaded before the modules) defines these globals.
// Every module calls gettext("literal") so that `make messages` (makemessages -d djangojs)
// finds its strings; tests/i18n checks that no visible string escapes it.
export const gettext = window.gettext || ((s) => s);
export const ngettext = window.ngettext || ((one, many, n) => (n === 1 ? one : many));
export const pgettext = window.pgettext || ((context, s) => s);

// The page's language, as the server chose it (<html lang>): en, es, de or ja.
export const language = document.documentElement.lang || "en";
const numbers = new Intl.NumberFormat(language);

// A number as the page's language writes it (1,000 · 1.000 · 1 000).
export const num = (n) => numbers.format(n);

// fmt(gettext("%(name)s took %(n)s cards"), {name, n}): numbers are written per locale.
export function fmt(template, values) {
  return template.replace(/%\((\w+)\)s/g, (_, key) => {
    const value = values[key];
    return typeof value === "number" ? num(value) : String(value);
  });
}
