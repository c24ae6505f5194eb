// tabletop-widgets: a frame is drawn (anywidget). A page part's frame (PageParts) holds this
// marker until its part is in; once the browser has drawn the frame (and so has its model), the
// marker says so through the synced trait `shown`, and the kernel then puts the part in.
// It draws nothing.
function render({ model, el }) {
  el.classList.add("tt-part-shown");
  if (!model.get("shown")) {
    model.set("shown", true);
    model.save_changes();
  }
}

export default { render };
