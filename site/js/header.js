// The site header's Menu on narrow or short screens (phones), folded there by the stylesheet:
// this makes the Menu link a toggle (a button to assistive technology) that Escape or a tap
// elsewhere closes. Without this script the link still opens the menu, as its #target.
const header = document.querySelector(".site-header");
const toggle = document.getElementById("menu-toggle");

function setOpen(open) {
  header.classList.toggle("menu-open", open);
  toggle.setAttribute("aria-expanded", String(open));
}

if (header && toggle) {
  toggle.addEventListener("click", (event) => {
    event.preventDefault();
    setOpen(!header.classList.contains("menu-open"));
  });
  // A link answers Enter only; a button answers Space too.
  toggle.addEventListener("keydown", (event) => {
    if (event.key === " ") {
      event.preventDefault();
      toggle.click();
    }
  });
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
