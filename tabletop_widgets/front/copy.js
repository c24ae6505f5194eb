// tabletop-widgets: a copy button (anywidget). Python sets the text; the browser copies it.
// The clipboard API needs a user gesture and a secure context (https or localhost): on plain
// http (a LAN table) or when the browser refuses, the text is shown in a selected field with a
// hint to press Ctrl+C. Nothing is sent back to the kernel.
function render({ model, el }) {
  el.classList.add("tt-copy");
  const button = document.createElement("button");
  button.type = "button";
  button.className = "tt-copy-button";
  const status = document.createElement("span");
  status.className = "tt-copy-status";
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  const area = document.createElement("textarea");
  area.className = "tt-copy-fallback";
  area.readOnly = true;
  area.hidden = true;

  function draw() {
    button.textContent = model.get("label");
    button.title = model.get("tooltip");
    button.setAttribute("aria-label", model.get("tooltip") || model.get("label"));
    area.setAttribute("aria-label", model.get("tooltip") || model.get("label"));
  }

  function fallback() {
    const text = model.get("text");
    area.value = text;
    area.rows = Math.min(12, text.split("\n").length + 1);
    area.hidden = false;
    area.focus();
    area.select();
    let copied = false;
    try {
      copied = document.execCommand("copy");
    } catch (e) {
      copied = false;
    }
    status.textContent = copied ? model.get("copied") : model.get("select_hint");
    el.dataset.copied = copied ? "fallback" : "selected";
  }

  button.addEventListener("click", () => {
    const text = model.get("text");
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(
        () => {
          area.hidden = true;
          status.textContent = model.get("copied");
          el.dataset.copied = "clipboard";
        },
        () => fallback(),
      );
    } else {
      fallback(); // still inside the click: execCommand may copy
    }
  });
  model.on("change:label", draw);
  model.on("change:tooltip", draw);
  model.on("change:text", () => {
    area.hidden = true;
    status.textContent = "";
    delete el.dataset.copied;
  });
  draw();
  el.append(button, status, area);
}

export default { render };
