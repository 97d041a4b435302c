// The site header on narrow or short screens (phones): the games, account links and languages
// fold behind a Menu button, so the header is one short line and the page starts at once.
// Without this script the header simply shows everything (the CSS folds only `.foldable`).
const header = document.querySelector(".site-header");
const toggle = document.getElementById("menu-toggle");

function setOpen(open) {
  header.classList.toggle("menu-open", open);
  toggle.setAttribute("aria-expanded", String(open));
}

if (header && toggle) {
  header.classList.add("foldable");
  toggle.hidden = false;
  toggle.addEventListener("click", () => setOpen(!header.classList.contains("menu-open")));
  // Escape or a tap elsewhere closes the menu, as people expect from a drop-down.
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && header.classList.contains("menu-open")) {
      setOpen(false);
      toggle.focus();
    }
  });
  document.addEventListener("click", (event) => {
    if (!header.contains(event.target)) setOpen(false);
  });
}
