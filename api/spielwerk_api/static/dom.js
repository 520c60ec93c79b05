// A small helper to build elements: h("button", { class: "card", onclick }, "text", child).

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") el.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(el.dataset, value);
    else if (value === true) el.setAttribute(name, "");
    else el.setAttribute(name, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// Arrow keys move the focus between the buttons of a row (Tab still reaches each of them).
export function arrowKeys(container, selector = "button:not([disabled])") {
  container.addEventListener("keydown", (event) => {
    if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
    const buttons = [...container.querySelectorAll(selector)];
    const at = buttons.indexOf(document.activeElement);
    if (at < 0) return;
    const to = {
      ArrowLeft: Math.max(0, at - 1),
      ArrowRight: Math.min(buttons.length - 1, at + 1),
      Home: 0,
      End: buttons.length - 1,
    }[event.key];
    buttons[to].focus();
    event.preventDefault();
  });
}
