// The 3D table: perspective or overhead, a small turn while dragging, optional zoom, and a
// "panel only" choice. The surface has a fixed size in its own units and is only scaled to fit,
// so the layout of the cards never changes with the view or the window. A game may give its
// surface another size (Memory on a phone: its grid as large as the screen allows).
export const SURFACE_W = 1000;
export const SURFACE_H = 680;
// The screens the stylesheet lays out as phones (site/css/site.css): there the table is seen
// from above unless the player chose otherwise, and nearly fills its frame.
export const PHONE_SCREEN = "(max-width: 720px), (max-height: 500px)";
const VIEW_KEY = "table-view";
const TILT = {perspective: 28, overhead: 0};
const MAX_TURN = 10;   // degrees, while dragging
const DRAG_THRESHOLD = 6;

export function supports3d() {
  return typeof CSS !== "undefined" && CSS.supports("transform-style", "preserve-3d")
    && CSS.supports("perspective", "1000px");
}

export class Table {
  constructor({wrap, viewport, stage, surface, onViewChange}) {
    Object.assign(this, {wrap, viewport, stage, surface, onViewChange});
    this.turn = 0;
    this.tiltExtra = 0;
    this.zoom = 1;
    this.zoomable = false;
    this.has3d = supports3d();
    this.width = SURFACE_W;
    this.height = SURFACE_H;
    this.fitListeners = [];
    const saved = localStorage.getItem(VIEW_KEY);
    // A tilted table's far cards are smaller: too small for a finger on a phone.
    const fallback = window.matchMedia(PHONE_SCREEN).matches ? "overhead" : "perspective";
    this.view = !this.has3d ? "panel" : (saved in TILT || saved === "panel" ? saved : fallback);
    for (const button of wrap.querySelectorAll("[data-view]")) {
      if (!this.has3d && button.dataset.view !== "panel") button.disabled = true;
      button.addEventListener("click", () => this.setView(button.dataset.view));
    }
    this.setSurfaceSize(SURFACE_W, SURFACE_H);
    new ResizeObserver(() => this.fit()).observe(viewport);
    this.bindDrag();
    this.setView(this.view);
  }

  setView(view) {
    if (!this.has3d && view !== "panel") return;
    this.view = view;
    localStorage.setItem(VIEW_KEY, view);
    document.body.classList.toggle("panel-only", view === "panel");
    for (const button of this.wrap.querySelectorAll("[data-view]")) {
      const pressed = button.dataset.view === view
        || (view === "panel" && button.dataset.view === "panel");
      button.setAttribute("aria-pressed", String(pressed));
    }
    const panelButton = this.wrap.querySelector("[data-view=panel]");
    this.wrap.dataset.tableView = view;
    if (panelButton) panelButton.hidden = view === "panel";
    this.fit({animate: true});
    if (this.onViewChange) this.onViewChange(view);
  }

  setZoomable(zoomable) {
    this.zoomable = zoomable;
    if (!zoomable) this.zoom = 1;
    this.apply();
  }

  setSurfaceSize(width, height) {
    if (width === this.width && height === this.height && this.surface.style.width) return;
    this.width = width;
    this.height = height;
    this.surface.style.width = `${width}px`;
    this.surface.style.height = `${height}px`;
    this.fit();
  }

  // `listener(box)` is called with the frame's size whenever the table is fitted to it.
  onFit(listener) {
    this.fitListeners.push(listener);
  }

  // A new frame or surface size is taken at once: only a change of view glides, so a table
  // is never seen (or tapped) at the scale it had before it was laid out.
  fit({animate = false} = {}) {
    const box = this.viewport.getBoundingClientRect();
    if (!box.width) return;
    // A margin keeps the far edge inside the frame when the table is tilted; seen from above,
    // a little of the rim.
    const margin = this.view === "overhead" ? 0.98 : 0.92;
    this.scale = margin * Math.min(box.width / this.width, box.height / this.height);
    if (animate) {
      this.apply();
    } else {
      this.stage.style.transition = "none";
      this.apply();
      void this.stage.offsetWidth;  // the new transform is taken before the transition returns
      this.stage.style.transition = "";
    }
    for (const listener of this.fitListeners) listener(box);
  }

  apply() {
    const tilt = this.view === "overhead" ? TILT.overhead : TILT.perspective;
    const scale = (this.scale || 1) * this.zoom;
    this.stage.style.transform =
      `translate(-50%, -50%) scale(${scale.toFixed(4)}) rotateX(${tilt + this.tiltExtra}deg) rotateZ(${this.turn}deg)`;
  }

  bindDrag() {
    const pointers = new Map();
    let start = null;
    let pinch = null;
    let dragged = false;
    this.viewport.addEventListener("pointerdown", (event) => {
      pointers.set(event.pointerId, {x: event.clientX, y: event.clientY});
      if (pointers.size === 1) {
        start = {x: event.clientX, y: event.clientY};
        dragged = false;
      } else if (pointers.size === 2 && this.zoomable) {
        pinch = {distance: distance(pointers), zoom: this.zoom};
      }
    });
    this.viewport.addEventListener("pointermove", (event) => {
      if (!pointers.has(event.pointerId)) return;
      pointers.set(event.pointerId, {x: event.clientX, y: event.clientY});
      if (pinch && pointers.size === 2) {
        this.setZoom(pinch.zoom * distance(pointers) / pinch.distance);
        return;
      }
      if (!start) return;
      const dx = event.clientX - start.x;
      const dy = event.clientY - start.y;
      if (!dragged && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
      if (!dragged) {
        dragged = true;
        this.viewport.setPointerCapture(event.pointerId);
        this.stage.classList.add("dragging");
      }
      this.turn = clamp(dx / 20, -MAX_TURN, MAX_TURN);
      this.tiltExtra = this.view === "overhead" ? 0 : clamp(-dy / 30, -8, 8);
      this.apply();
    });
    const end = (event) => {
      pointers.delete(event.pointerId);
      if (pointers.size < 2) pinch = null;
      if (pointers.size === 0 && start) {
        start = null;
        this.stage.classList.remove("dragging");
        // The turn is a glance, not a setting: the table eases back.
        this.turn = 0;
        this.tiltExtra = 0;
        this.apply();
      }
    };
    this.viewport.addEventListener("pointerup", end);
    this.viewport.addEventListener("pointercancel", end);
    // A drag is not a click on the card under the pointer.
    this.viewport.addEventListener("click", (event) => {
      if (dragged) {
        event.stopPropagation();
        event.preventDefault();
        dragged = false;
      }
    }, true);
    this.viewport.addEventListener("wheel", (event) => {
      if (!this.zoomable) return;
      event.preventDefault();
      this.setZoom(this.zoom * Math.exp(-event.deltaY / 500));
    }, {passive: false});
  }

  setZoom(zoom) {
    this.zoom = clamp(zoom, 0.6, 2.2);
    this.apply();
  }
}

function clamp(value, low, high) {
  return Math.max(low, Math.min(high, value));
}

function distance(pointers) {
  const [a, b] = [...pointers.values()];
  return Math.hypot(a.x - b.x, a.y - b.y) || 1;
}
