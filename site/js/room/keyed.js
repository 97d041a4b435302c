// The table lights what the button panel's keyboard focus is on, where the eyes are: the table
// element that does the same (the same data-act: Bozu's deck for Flip, Gin's stock and discard
// pile for Draw and Take) or shows the same card (data-card: Gin's hand). Memory lights its
// cards by position itself (site/js/games/memory.js), whether or not one may flip them now.
export function lightFocusOnTable(panel, surface) {
  const clear = () => {
    for (const el of surface.querySelectorAll(".keyed")) el.classList.remove("keyed");
  };
  panel.addEventListener("focusin", (event) => {
    if (event.target.closest("[data-pos]")) return;
    clear();
    const focused = event.target.closest("[data-act], [data-card]");
    if (!focused) return;
    const {act, card} = focused.dataset;
    for (const twin of surface.querySelectorAll("[data-act], [data-card]")) {
      if ((card && twin.dataset.card === card) || (act && twin.dataset.act === act)) twin.classList.add("keyed");
    }
  });
  panel.addEventListener("focusout", (event) => {
    if (!panel.contains(event.relatedTarget)) clear();
  });
}
