// Animated dice for the tabletop dice tray (anywidget front-end module; no imports, no CDN).
//
// State lives in Python traits: `dice` (what was rolled), `roll_id` (a counter, so that the
// same faces rolled twice still animate), `announcement` (the result as text, spoken by the
// live region), `animate` and `label`. The browser never chooses a result: tumbling faces are
// decoration, and every die settles on the face Python rolled.

const TUMBLE_MS = 650;
const FRAME_MS = 70;

function reducedMotion() {
  try {
    return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  } catch (_e) {
    return false;
  }
}

function randomFace(die) {
  const sides = Number(die.sides) || 0;
  if (die.faces === "F") return ["−", "0", "+"][Math.floor(Math.random() * 3)];
  if (sides > 0) return String(1 + Math.floor(Math.random() * sides));
  return die.value;
}

function dieElement(die, index) {
  const el = document.createElement("span");
  el.className = "tt-anim-die";
  for (const c of die.classes || []) el.classList.add("tt-anim-" + c);
  el.dataset.index = String(index);
  el.dataset.value = die.value;
  el.dataset.faces = String(die.faces);
  el.setAttribute("aria-hidden", "true");
  const face = document.createElement("span");
  face.className = "tt-anim-face";
  face.textContent = die.value;
  const kind = document.createElement("span");
  kind.className = "tt-anim-kind";
  kind.textContent = die.faces === "" ? "" : "d" + die.faces;
  el.append(face, kind);
  if (die.title) el.title = die.title;
  return el;
}

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "tt-dice-anim";
  const row = document.createElement("div");
  row.className = "tt-anim-row";
  row.setAttribute("role", "img");
  const live = document.createElement("div");
  live.className = "tt-live";
  live.setAttribute("role", "status");
  live.setAttribute("aria-live", "polite");
  live.setAttribute("aria-atomic", "true");
  root.append(row, live);
  el.append(root);

  let timers = [];
  const stop = () => {
    for (const t of timers) clearTimeout(t), clearInterval(t);
    timers = [];
  };

  const settle = (dice) => {
    row.querySelectorAll(".tt-anim-die").forEach((node, i) => {
      node.classList.remove("tt-anim-tumbling");
      node.classList.add("tt-anim-settled");
      node.querySelector(".tt-anim-face").textContent = dice[i].value;
    });
    root.dataset.state = "settled";
  };

  const draw = (animate) => {
    stop();
    const dice = model.get("dice") || [];
    row.replaceChildren(...dice.map(dieElement));
    row.setAttribute("aria-label", model.get("label") || "");
    root.classList.toggle("tt-anim-empty", dice.length === 0);
    const moving = animate && model.get("animate") && !reducedMotion() && dice.length > 0;
    if (!moving) {
      settle(dice);
      return;
    }
    root.dataset.state = "rolling";
    const nodes = Array.from(row.querySelectorAll(".tt-anim-die"));
    nodes.forEach((node, i) => {
      node.style.setProperty("--tt-delay", `${(i % 8) * 35}ms`);
      node.style.setProperty("--tt-spin", `${(i % 2 ? -1 : 1) * (300 + ((i * 47) % 140))}deg`);
      node.classList.add("tt-anim-tumbling");
    });
    timers.push(setInterval(() => {
      nodes.forEach((node, i) => {
        node.querySelector(".tt-anim-face").textContent = randomFace(dice[i]);
      });
    }, FRAME_MS));
    timers.push(setTimeout(() => { stop(); settle(dice); }, TUMBLE_MS));
  };

  const announce = () => {
    // clear, then set on the next frame: screen readers announce a changed text even when
    // two rolls in a row read the same
    live.textContent = "";
    const text = model.get("announcement") || "";
    timers.push(setTimeout(() => { live.textContent = text; }, 30));
  };

  const onRoll = () => { draw(true); announce(); };
  const onLabel = () => row.setAttribute("aria-label", model.get("label") || "");
  model.on("change:roll_id", onRoll);
  model.on("change:label", onLabel);
  draw(false);
  live.textContent = model.get("announcement") || "";

  return () => {
    stop();
    model.off("change:roll_id", onRoll);
    model.off("change:label", onLabel);
  };
}

export default { render };
