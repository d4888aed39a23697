// What the page's modules share to build their DOM: an element with its attributes and its
// text, set as text (never as HTML).

/** `<tag …attrs>text</tag>`. */
export function h(tag, attrs = {}, text = null) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== null) node.textContent = text;
  return node;
}
