// The rules pages' pictures, drawn by the games' own code: the placeholders written by
// games/templatetags/rules_pictures.py become playing cards (cards.js) and karuta (bozu.js).
import { cardEl, longName } from "./games/cards.js";
import { karuta } from "./games/bozu.js";
import { gettext } from "./i18n.js";

for (const spot of document.querySelectorAll(".rules-card")) {
  const code = spot.dataset.card || null;
  spot.append(cardEl(code));
  spot.setAttribute("role", "img");
  spot.setAttribute("aria-label", code ? longName(code) : gettext("a face-down card"));
}
for (const spot of document.querySelectorAll(".rules-karuta")) {
  spot.append(karuta(JSON.parse(spot.dataset.karuta)));
}
