// Small DOM helpers: build elements without string-concatenating untrusted text.

/**
 * Create an element: h("button", {class: "x", onclick: fn, "aria-label": "..."}, child, "text", ...).
 * Attributes whose value is false, null or undefined are left off; true sets an empty attribute.
 * `vars: {"--i": 2}` sets CSS custom properties through the style object (the page's
 * Content-Security-Policy blocks a `style` attribute written as text, so there is none).
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith("on") && typeof value === "function") {
      element.addEventListener(name.slice(2), value);
    } else if (name === "html") {
      element.innerHTML = value; // only for SVG drawn by our own code
    } else if (name === "vars") {
      for (const [property, setting] of Object.entries(value)) element.style.setProperty(property, String(setting));
    } else if (name === "style") {
      throw new Error("no style attributes: the Content-Security-Policy blocks them (use vars or a class)");
    } else if (name === "dataset") {
      Object.assign(element.dataset, value);
    } else {
      element.setAttribute(name, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** Replace every child of `element` with `children`. */
export function fill(element, ...children) {
  element.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return element;
}

/** Start a text file download in the browser. */
export function downloadText(filename, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
  const link = h("a", { href: url, download: filename, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
