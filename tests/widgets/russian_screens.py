"""What a Russian player reads: every visible text of a widget tree (labels, values of read-only
views, tooltips, placeholders, dropdown labels, accordion titles, and the title/aria-label
attributes inside HTML), gathered after a scripted session of play, and checks on it."""

from __future__ import annotations

import html
import random
import re
from typing import Iterable

import ipywidgets as widgets

from tabletop_widgets import get_system
from tabletop_widgets.widgets import CharacterSheet, DiceTray, RollLog
from tabletop_widgets.widgets.tracker import show_combat

_SELECTIONS = (widgets.widget_selection._Selection, widgets.widget_selection._MultipleSelection)
_INPUTS = (
    widgets.Text,
    widgets.Textarea,
    widgets.IntText,
    widgets.BoundedIntText,
    widgets.FloatText,
    widgets.BoundedFloatText,
    widgets.Checkbox,
    widgets.ToggleButton,
    widgets.FileUpload,
)


def widget_texts(w, out: list[str] | None = None, seen: set | None = None) -> list[str]:
    """Every text a widget tree shows (a reader sees labels, never the values behind a
    dropdown; what a player typed into a box is theirs, not ours)."""
    out = [] if out is None else out
    seen = set() if seen is None else seen
    if id(w) in seen:
        return out
    seen.add(id(w))
    classes = getattr(w, "_dom_classes", ())
    if "tt-style" in classes:
        return out
    layout = getattr(w, "layout", None)
    if layout is not None and getattr(layout, "display", None) == "none":
        return out
    attrs = ["description", "tooltip", "placeholder"]
    if not isinstance(w, _SELECTIONS + _INPUTS):
        attrs.append("value")
    for attr in attrs:
        v = getattr(w, attr, None)
        if isinstance(v, str) and v:
            out.extend(visible_parts(v))
    if isinstance(w, _SELECTIONS):
        out.extend(str(label) for label in w._options_labels)
    tips = getattr(w, "tooltips", None)
    if tips:
        out.extend(str(x) for x in tips)
    if isinstance(w, (widgets.Accordion, widgets.Tab)):
        out.extend(x for x in w.titles if x)
    for c in getattr(w, "children", ()) or ():
        widget_texts(c, out, seen)
    return out


def visible_parts(text: str) -> list[str]:
    """The words an HTML string shows or reads out: its text and its title/aria-label/alt."""
    if "<" not in text:
        return [text]
    text = re.sub(r"<(style|script)\b.*?</\1>", " ", text, flags=re.S | re.I)
    attrs = re.findall(r'\b(?:title|aria-label|placeholder|alt)="([^"]*)"', text)
    body = re.sub(r"<[^>]+>", " ", text)
    return [html.unescape(x) for x in [body, *attrs] if x.strip()]


# -- what counts as English on a Russian screen -----------------------------------------------

#: The few Latin tokens a Russian screen may show: the language toggle's "EN"/"English" (a
#: language's own name), the file format, the Enter key, and the words of the dice notation a
#: player types into %roll (core: ``kh``, ``d6``; the systems' words: L&D ``ld``, Seasons
#: ``pool … diff … contest``, Threads ``t20 … hin … adv … vs``, ``trouble``, RET ``L3 … luck``).
ALLOWED_LATIN = {
    "EN",
    "RU",
    "English",
    "JSON",
    "SHA",  # SHA-256, the fingerprint's name beside the dice commitment
    "Enter",
    "i",  # the hint mark beside a label: a circled i, the universal "information" sign (aria-hidden)
    "roll",
    "kh",
    "kl",
    "dh",
    "dl",
    "ro",
    "r",
    "ld",
    "s",
    "N",
    "pool",
    "diff",
    "contest",
    "rolloff",
    "t",
    "hin",
    "adv",
    "dis",
    "vs",
    "trouble",
    "L",
    "luck",
}
#: What a book itself prints in Latin letters, by system (its seed line).
BOOK_LATIN = {
    "ret": {"I", "II", "III", "IV"},  # «I уровень вложенности», the tree's tiers, L49
    "life_and_death": {
        "Life",
        "Death",
        "Game",
        "Death’s",  # the title
        "HP",
        "EP",
        "SP",
        "IP",  # L15, L128-130
        "H",
        "C",
    },  # harmonious / chaotic energetics marks, L90
}
#: The lobby lists every game by its title, Life&Death's Latin one included.
TITLE_LATIN = {"Life", "Death", "Death’s", "Game"}
#: Notation tokens: dice (``2d6``, ``d%``, ``4dF``), keep/drop (``4d6kh3``), %roll words.
_NOTATION = re.compile(r"\b\d*d(?:\d+|%|F)\w*|%%?roll\b|@\{[^}]*\}|@[\w\u0400-\u04FF]+|\bL\d\b|\bt20\b")

#: What a table page shows that is not words: a seat link (a URL) and a fingerprint (hex).
_NOT_WORDS = re.compile(r"https?://\S+|\b[0-9a-f]{16,}\b")

#: A rulebook line marker (``L742``, ``L15-L20``) or a spec id (``A-02``): never player text.
MARKER = re.compile(r"\bL\d{2,}\b|\bA-\d{2}\b")
_LATIN = re.compile(r"[A-Za-z][A-Za-z_'’]*")


def latin_words(texts: Iterable[str], allowed: set[str] = ALLOWED_LATIN) -> dict[str, str]:
    """Latin words (outside dice notation and the allow-list) -> the first text showing it."""
    found: dict[str, str] = {}
    allowed = set(allowed)
    for text in texts:
        clean = _NOTATION.sub(" ", _NOT_WORDS.sub(" ", text))
        for word in _LATIN.findall(clean):
            if word in allowed or word.strip("'’") in allowed:
                continue
            found.setdefault(word, text.replace("\n", " ")[:160])
    return found


# -- a scripted session of play, in Russian ----------------------------------------------------

NAMES = ("Аня", "Гоша", "Вера")


def play_tray(slug: str, locale: str = "ru", *, switch: bool = False, rolls: int | None = None):
    """A tray (built in ``locale``, or in English and switched) after rolling its checks."""
    system = get_system(slug)
    character = system.Character(name=NAMES[0])
    log = RollLog(locale="en" if switch else locale)
    tray = DiceTray(character, locale="en" if switch else locale, log=log, rng=random.Random(7), animate=False)
    if switch:
        tray.locale = locale
    checks = tray.checks if rolls is None else tray.checks[:rolls]
    rolled = []
    for i, c in enumerate(checks):
        tray.card(c.id)
        result = tray.roll_check(c.id)
        if result is not None and i % 7 == 0:
            rolled.append(widget_texts(tray))
    tray.roll("2d6+1 >= 8")
    return tray, log, rolled


def play_sheet(slug: str, locale: str = "ru", *, switch: bool = False):
    system = get_system(slug)
    character = system.Character(name=NAMES[0])
    sheet = CharacterSheet(character, locale="en" if switch else locale)
    if switch:
        sheet.locale = locale
    sheet.revalidate()
    return sheet


def play_tracker(slug: str, locale: str = "ru", *, switch: bool = False):
    """A tracker after a fight: initiative, damage to the floor, healing, the Attack part (an
    attack when the rules offer one), every condition of the catalogue, turns until some expire, a delay, defeat marks, a rename and an undo. Returns the
    tracker and every status line it said along the way."""
    system = get_system(slug)
    chars = [system.Character(name=n) for n in NAMES]
    tracker = show_combat(system, characters=chars, rng=random.Random(3), locale="en" if switch else locale)
    if switch:
        tracker.locale = locale
    said: list[str] = []

    def do(fn, *a, **kw):
        fn(*a, **kw)
        said.append(tracker.message)

    ids = list(tracker.combat.ids)
    do(tracker.roll_initiative)
    do(tracker.next_turn)
    for cond in system.conditions():
        do(tracker.add_condition, ids[1], cond.id, 1)
    do(tracker.damage, ids[0], 3)
    do(tracker.heal, ids[0], 1)
    tracker.select(ids[0])
    tracker.open_details("attack")  # the odds before the roll, and an attack when the rules offer one
    if tracker.attack_panel.choice.options:
        do(tracker.attack_selected)
    do(tracker.damage, ids[2], 999)
    for _ in range(5):
        do(tracker.next_turn)
    do(tracker.delay)
    do(tracker.set_defeated, ids[1], True)
    do(tracker.set_defeated, ids[1], False)
    do(tracker.set_hidden, ids[1], True)
    do(tracker.set_hidden, ids[1], False)
    do(tracker.rename, ids[1], "Гоша-2")
    do(tracker.undo)
    do(tracker.previous_turn)
    tracker.select(ids[0])
    do(tracker.end)
    return tracker, said


# -- endings ------------------------------------------------------------------------------------

#: Count nouns a session shows, nominative: one / few / many.
NOUN_FORMS = [
    ("успех", "успеха", "успехов"),
    ("провал", "провала", "провалов"),
    ("кубик", "кубика", "кубиков"),
    ("дайс", "дайса", "дайсов"),
    ("куб", "куба", "кубов"),
    ("очко", "очка", "очков"),
    ("пункт", "пункта", "пунктов"),
    ("Нить", "Нити", "Нитей"),
    ("шаг", "шага", "шагов"),
    ("ход", "хода", "ходов"),
    ("раунд", "раунда", "раундов"),
    ("взрыв", "взрыва", "взрывов"),
    ("переброс", "переброса", "перебросов"),
]


def wrong_endings(texts: Iterable[str]) -> dict[str, str]:
    """``"2 Нитей"``-like pairs (a number and a noun form that does not agree) -> the text."""
    from tabletop_widgets.core.i18n import plural_ru

    forms = {}
    for one, few, many in NOUN_FORMS:
        for f in (one, few, many):
            forms.setdefault(f.lower(), (one, few, many))
    pattern = re.compile(
        r"(?<![\d.,/])(\d+) (" + "|".join(sorted(map(re.escape, forms), key=len, reverse=True)) + r")(?![\w])", re.I
    )
    bad = {}
    for text in texts:
        for m in pattern.finditer(text):
            n, word = int(m.group(1)), m.group(2)
            if plural_ru(n, *forms[word.lower()]).lower() != word.lower():
                bad.setdefault(m.group(), text.replace("\n", " ")[:160])
    return bad


# -- the shared table: the lobby and a seat's screen ---------------------------------------------


def play_lobby(slug: str, store_path: str, locale: str = "ru", *, switch: bool = False):
    """The lobby (built in ``locale``, or in English and switched) after the GM picked ``slug``,
    asked for an observer and created the table: the form and the seat links."""
    from tabletop_widgets.table import open_store, prepare_lobby_key
    from tabletop_widgets.widgets.lobby import Lobby

    store = open_store(store_path)
    prepare_lobby_key(store, disabled=True)
    lobby = Lobby(store, base="http://table.example/table.ipynb", locale="en" if switch else locale)
    if switch:
        lobby.locale = locale
    lobby.system.value = slug
    lobby.observers.value = 1
    made = lobby.create()
    assert made is not None, lobby.error.value
    return lobby, store


def play_table(slug: str, store_path: str, locale: str = "ru", *, switch: bool = False):
    """The GM's and a player's screens of a table of ``slug`` (built in ``locale`` or switched)
    after a player's check and roll, a GM's hidden roll and note, a character brought into the
    fight, a refused GM-only option, and a seat given a new link. Returns (gm, player, said):
    ``said`` holds the refusals a seat was shown."""
    from tabletop_widgets.table import SeatSpec, TableSession, create_table, open_store
    from tabletop_widgets.widgets.lobby import sample_character
    from tabletop_widgets.widgets.table_view import TableView

    system = get_system(slug)
    store = open_store(store_path)
    chars = {"c1": sample_character(system, NAMES[0]).to_dict(), "c2": sample_character(system, NAMES[1]).to_dict()}
    made = create_table(
        store,
        slug,
        [SeatSpec("gm", "gm", "Лена"), SeatSpec("p1", "player", "Пётр", "c1"), SeatSpec("p2", "player", "Ира", "c2")],
        characters=chars,
        title="Пятничная игра",
    )

    def view(seat):
        session = TableSession.join(open_store(store_path), made.table_id, made.tokens[seat])
        v = TableView(session, follow=False, animate=False, locale="en" if switch else locale)
        if switch:
            v.locale = locale
        return v

    gm, player = view("gm"), view("p1")
    said = []
    player.tray.roll_check(player.tray.checks[0].id)
    player.tray.roll("2d6+1 >= 8")
    gm.hidden_toggle.value = True
    gm.tray.roll("1d20")
    gm.hidden_toggle.value = False
    gm.add_note("Засада у моста", "Глава 1")
    gm.bring_into_combat("c2", hidden=True)
    from tabletop_widgets.table import check as check_request
    from tabletop_widgets.table.rules import PlayDenied, gm_only_fields

    gm_option = next(((c.id, o) for c in player.tray.checks for o in c.options if o.gm_only), None)
    if gm_option is not None:
        try:
            player.session.roll(check_request(gm_option[0], "c1", **{gm_option[1].name: gm_option[1].default}))
        except PlayDenied as exc:  # the refusal is what a player reads
            said.append(exc.text(locale))
    for name in sorted(gm_only_fields(system)):
        value = chars["c1"].get(name)
        try:
            player.session.update_character("c1", {name: (value + 1) if isinstance(value, int) else "x"})
        except PlayDenied as exc:
            said.append(exc.text(locale))
        break
    gm.reissue_link("p2", base="http://table.example/table.ipynb")
    gm.session.close_table()
    for v in (gm, player):
        v.session.poll()
    return gm, player, said
