"""Files named by others read only where they may be, bounded, and quoted briefly; plain mistakes
answered in words (exit 2); names safe in Markdown, chat and spreadsheets; autosave that says
when it cannot keep the work."""

from __future__ import annotations

import csv
import io
import os
import resource
import shutil
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import SAMPLES, run_cli

IRON = SAMPLES / "fast_universal_iron_vanguard.toml"
CROWN = SAMPLES / "ares_crown_household.toml"
LEVY = SAMPLES / "ares_border_levy.toml"
SECRET = "SECRET=hunter2\nTOKEN=swordfish\n"
LIMIT = 60  # seconds: a guard against hanging, far above what any of these takes


def rosterkit(*args, cwd: Path, home: Path | None = None, env: dict | None = None, memory: int | None = None,
              drop_privileges: bool = False) -> subprocess.CompletedProcess:
    """The command in a process of its own (a test of a hang or of a memory bound cannot run in
    this one). ``drop_privileges``: without root's power to read any folder, as a player runs it."""
    environ = dict(os.environ, ROSTERKIT_HOME=str(home or cwd / "home"), PYTHONPATH=str(Path(__file__).parents[1]),
                   **(env or {}))
    command = [sys.executable, "-m", "rosterkit", *map(str, args)]
    if drop_privileges and os.geteuid() == 0:
        command = ["setpriv", "--inh-caps=-all", "--bounding-set=-all", *command]

    def limit_memory() -> None:
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return subprocess.run(command, capture_output=True, text=True, timeout=LIMIT, cwd=cwd, env=environ, check=False,
                          preexec_fn=limit_memory, stdin=subprocess.DEVNULL)


def tournament(tmp_path: Path) -> tuple[Path, Path]:
    """A tournament folder with two lists, and a secret beside it (outside the folder)."""
    folder = tmp_path / "round1"
    folder.mkdir()
    for src in (CROWN, LEVY):
        shutil.copy(src, folder)
    secret = tmp_path / "credentials"
    secret.write_text(SECRET, encoding="utf-8")
    return folder, secret


def no_secret(result) -> None:
    text = (result.out + result.err) if hasattr(result, "out") else (result.stdout + result.stderr)
    assert "hunter2" not in text and "swordfish" not in text


# ---------------------------------------------------------------- finding 3: pairings and excerpts


@pytest.mark.parametrize("how", ["parent", "absolute", "link"])
def test_finding3_pairings_cannot_name_files_outside_its_folder(tmp_path, how):
    folder, secret = tournament(tmp_path)
    if how == "link":  # a link inside the folder that leads outside counts as outside
        (folder / "entry.toml").symlink_to(secret)
        other = "entry.toml"
    else:
        other = "../credentials" if how == "parent" else str(secret)
    pairs = folder / "pairs.txt"
    pairs.write_text(f"# round 1\n{CROWN.name} {LEVY.name}\n{CROWN.name} {other}\n", encoding="utf-8")
    r = run_cli("validate", "--pairings", pairs)
    assert r.code == 2, r.err
    assert f"{pairs}:3: '" in r.err and f"{other[-30:]}' " in r.err  # the file, the line, the path
    assert "outside the pairings file's folder" in r.err
    assert "--allow-outside" in r.err and ("is a link" in r.err) == (how == "link")
    no_secret(r)


def test_finding3_allow_outside_lets_the_organiser_name_rosters_elsewhere(tmp_path):
    folder, _ = tournament(tmp_path)
    pairs = folder / "pairs.txt"
    pairs.write_text(f"{CROWN.name} {LEVY}\n", encoding="utf-8")  # a list of the pack beside a shipped one
    assert run_cli("validate", "--pairings", pairs).code == 2
    r = run_cli("validate", "--allow-outside", "--pairings", pairs)
    assert r.code == 0, r.err
    assert "balanced (500 vs 475)" in r.out


def test_finding3_unreadable_roster_not_echoed(tmp_path):
    folder, _ = tournament(tmp_path)
    (folder / "entry.toml").write_text(SECRET, encoding="utf-8")  # a submission that is no roster at all
    pairs = folder / "pairs.txt"
    pairs.write_text(f"{CROWN.name} entry.toml\n", encoding="utf-8")
    r = run_cli("validate", "--pairings", pairs)
    assert r.code == 2
    assert f"{folder / 'entry.toml'}:1: not valid TOML" in r.err
    no_secret(r)


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="no /proc")
def test_finding3_unreadable_roster_not_echoed_even_when_allowed_outside(tmp_path):
    folder, _ = tournament(tmp_path)
    pairs = folder / "pairs.txt"
    pairs.write_text(f"{CROWN.name} /proc/self/environ\n", encoding="utf-8")
    r = rosterkit("validate", "--allow-outside", "--pairings", pairs, cwd=tmp_path, env={"API_KEY": "hunter2"})
    assert r.returncode == 2 and "/proc/self/environ" in r.stderr
    no_secret(r)


def test_finding3_error_excerpt_is_short_and_made_visible(tmp_path):
    path = tmp_path / "long.toml"
    path.write_text('format = 1\nname = "x"\nruleset = "fast_universal"\nnotes = "' + "\x1b[2J" * 2_000 + "\n",
                    encoding="utf-8")
    r = run_cli("validate", path)
    assert r.code == 2 and f"{path}:4: not valid TOML" in r.err
    lines = r.err.splitlines()
    assert len(lines) == 3 and len(lines[1]) < 80, lines  # a few words of the line, not 8,000 characters
    assert "\x1b" not in r.err and "␛[2J" in r.err and "^" in r.err


def test_finding3_a_pairings_line_is_quoted_briefly(tmp_path):
    pairs = tmp_path / "pairs.txt"
    pairs.write_text("a.toml b.toml " + " ".join(f"key{i}=hunter2" for i in range(200)) + "\n", encoding="utf-8")
    r = run_cli("validate", "--pairings", pairs)
    assert r.code == 2 and f"{pairs}:1: expected two roster paths on the line, found 202" in r.err
    quoted = r.err.split("found 202: ", 1)[1].strip()
    assert quoted.startswith("a.toml b.toml key0=hunter2") and len(quoted) <= 80  # the start of the line only


def test_finding3_a_file_swapped_for_a_pipe_is_refused_without_blocking(tmp_path, monkeypatch):
    """The file checked is the file read: a name that becomes a pipe between the check and the
    opening is refused, never waited on."""
    path = tmp_path / "army.toml"
    shutil.copy(IRON, path)
    real_stat = os.stat

    def stat_then_swap(name, *args, **kwargs):
        result = real_stat(name, *args, **kwargs)
        if os.fspath(name) == str(path) and not stat.S_ISFIFO(result.st_mode):
            path.unlink()
            os.mkfifo(path)
        return result
    monkeypatch.setattr(os, "stat", stat_then_swap)
    done: list = []
    reader = threading.Thread(target=lambda: done.append(run_cli("validate", path)), daemon=True)
    reader.start()
    reader.join(10)
    if reader.is_alive():  # let the blocked reader go before failing
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(10)
        pytest.fail("reading the roster waited on a pipe")
    assert done[0].code == 2 and "is not a regular file" in done[0].err and str(path) in done[0].err


# ---------------------------------------------------------------- finding 7: --font


def cards_with_font(tmp_path: Path, font, **kw) -> subprocess.CompletedProcess:
    return rosterkit("cards", IRON, "-o", tmp_path / "out.pdf", "--font", font, cwd=tmp_path, **kw)


def test_finding7_font_fifo_refused(tmp_path):
    fifo = tmp_path / "font.ttf"
    os.mkfifo(fifo)
    r = cards_with_font(tmp_path, fifo)
    assert r.returncode == 2, r.stderr
    assert f"{fifo}, --font: cannot read the font: is not a regular file" in r.stderr
    assert not (tmp_path / "out.pdf").exists()


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_finding7_font_device_refused_without_reading_it(tmp_path):
    r = cards_with_font(tmp_path, "/dev/zero", memory=1 << 30)  # never reading it all, even with 1 GB
    assert r.returncode == 2, r.stderr
    assert "/dev/zero, --font: cannot read the font: is not a regular file" in r.stderr


def test_finding7_font_folder_refused(tmp_path):
    r = run_cli("cards", IRON, "-o", tmp_path / "out.pdf", "--font", tmp_path)
    assert r.code == 2 and f"{tmp_path}, --font: cannot read the font: is a folder, not a file" in r.err


def test_finding7_font_too_large_refused(tmp_path):
    huge = tmp_path / "huge.ttf"
    with open(huge, "wb") as fh:
        fh.truncate(40 * 1024 * 1024)
    r = run_cli("cards", IRON, "-o", tmp_path / "out.pdf", "--font", huge)
    assert r.code == 2 and f"{huge}, --font: cannot read the font: file too large (40 MB; at most 32 MB)" in r.err


def test_finding7_a_non_font_is_refused_before_any_work(tmp_path):
    fake = tmp_path / "fake.ttf"
    fake.write_text(SECRET, encoding="utf-8")
    r = run_cli("cards", tmp_path / "not-there-yet.toml", "-o", tmp_path / "out.pdf", "--font", fake)
    assert r.code == 2 and f"{fake}, --font: not a TrueType font that can be embedded" in r.err
    assert "not-there-yet.toml" not in r.err  # said first, before the roster is even read
    no_secret(r)


# ---------------------------------------------------------------- finding 9: plain mistakes


def test_finding9_empty_name_exit_2(tmp_path):
    r = run_cli("new", "--ruleset", "ares", "--name", "", tmp_path / "x.toml")
    assert r.code == 2 and "--name: must not be empty" in r.err and "internal error" not in r.err
    assert not (tmp_path / "x.toml").exists()


def test_finding9_long_name_exit_2(tmp_path):
    r = run_cli("new", "--ruleset", "ares", "--name", "x" * 300, tmp_path / "x.toml")
    assert r.code == 2 and "--name: too long (at most 200 characters)" in r.err and "internal error" not in r.err
    assert not (tmp_path / "x.toml").exists()


@pytest.mark.parametrize("command", [
    ["new", "--ruleset", "ares", "--name", "x", "{long}"],
    ["new", "--ruleset", "ares", "--name", "x", "--force", "{long}/army.toml"],
    ["validate", "--rulesets", "{long}", IRON],
    ["rulesets", "--rulesets", "{long}"],
    ["{long}"],  # the interface, on a roster named too long
])
def test_finding9_long_file_name_exit_2(tmp_path, command):
    long = str(tmp_path / ("f" * 300 + ".toml"))
    r = rosterkit(*(str(a).replace("{long}", long) for a in command), cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    assert "internal error" not in r.stderr and "Traceback" not in r.stderr
    assert long in r.stderr and "too long" in r.stderr.lower()


def test_finding9_long_file_name_in_the_interface_is_a_message(tmp_path):
    """Save as, new roster and export check the name typed at each key: a name too long is said
    under the box, not a crash."""
    from rosterkit.tui.screens.save_as import check_target

    path, problem, _ = check_target("f" * 300, tmp_path)
    assert path is None and problem == "Cannot use that name: File name too long"


needs_permissions = pytest.mark.skipif(
    os.geteuid() == 0 and shutil.which("setpriv") is None, reason="as root, a folder without permissions can be read")


@needs_permissions
@pytest.mark.parametrize("where", ["home", "option"])
def test_finding9_unsearchable_rulesets_folder_exit_2(tmp_path, where):
    home = tmp_path / "home"
    folder = home / "rulesets" if where == "home" else tmp_path / "my_rulesets"
    folder.mkdir(parents=True)
    roster = tmp_path / "army.toml"
    shutil.copy(IRON, roster)
    extra = ["--rulesets", folder] if where == "option" else []
    folder.chmod(0)
    try:
        for command in (["validate", *extra, roster], ["cost", *extra, roster],
                        ["new", *extra, "--ruleset", "ares", "--name", "x", tmp_path / "x.toml"]):
            r = rosterkit(*command, cwd=tmp_path, home=home, drop_privileges=True)
            assert r.returncode == 2, (command, r.stderr)
            assert f"{folder}: cannot search the rulesets folder: permission denied" in r.stderr
            assert "internal error" not in r.stderr
        listed = rosterkit("rulesets", *extra, cwd=tmp_path, home=home, drop_privileges=True)
        assert listed.returncode == 2 and "fast_universal" in listed.stdout  # the others still listed
        assert f"{folder}: cannot search the rulesets folder" in listed.stderr
    finally:
        folder.chmod(0o755)


# ---------------------------------------------------------------- finding 9: Markdown, chat, CSV


HOSTILE_NAMES = {
    "army": "@everyone ![pic](https://evil.example/track.png)",
    "unit": "[Click me](https://evil.example/login) <img src=x onerror=alert(1)> *bold* `code`",
    "hero": "<@&123456> @here _x_ ~~gone~~",
}


def hostile_roster(tmp_path: Path) -> Path:
    text = IRON.read_text(encoding="utf-8")
    for old, key in (('name = "Iron Vanguard"', "army"), ('name = "Spearmen"', "unit"),
                     ('name = "Captain Aldric"', "hero")):
        text = text.replace(old, f'name = "{HOSTILE_NAMES[key]}"')
    path = tmp_path / "hostile.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_finding9_markdown_escapes_names(tmp_path):
    from markdown_it import MarkdownIt

    r = run_cli("text", "--markdown", hostile_roster(tmp_path))
    assert r.code == 0, r.err
    html = MarkdownIt("commonmark").enable(["strikethrough", "table"]).render(r.out)
    for tag in ("<a ", "<img", "<em>", "<code>", "<s>", "<del>"):
        assert tag not in html, (tag, html)
    # the names are shown as written
    shown = html.replace("\u200b", "")
    assert "[Click me](https://evil.example/login) &lt;img src=x onerror=alert(1)&gt; *bold* `code`" in shown
    assert "![pic](https://evil.example/track.png)" in shown


@pytest.mark.parametrize("options", [["--markdown"], [], ["--compact"]])
def test_finding9_everyone_does_not_ping(tmp_path, options):
    r = run_cli("text", *options, hostile_roster(tmp_path))
    assert r.code == 0, r.err
    for mention in ("@everyone", "@here", "<@&123456>"):
        assert mention not in r.out
        assert mention.replace("@", "@\u200b") in r.out.replace("\\<", "<").replace("\\>", ">").replace("\\&", "&")


@pytest.mark.parametrize("name", ['x;=HYPERLINK(\\"https://evil.example\\")', "x, +SUM(1)", "  =1+1", "a | @A1"])
def test_finding9_csv_guards_every_cell_a_spreadsheet_could_read_as_a_formula(tmp_path, name):
    path = tmp_path / "evil.toml"
    path.write_text(IRON.read_text(encoding="utf-8").replace('name = "Iron Vanguard"', f'name = "{name}"'),
                    encoding="utf-8")
    out = run_cli("validate", "--csv", path).out
    cell = next(csv.DictReader(io.StringIO(out)))["name"]
    # whichever of , ; | a spreadsheet splits on, no piece starts (after spaces) a formula
    for separator in (",", ";", "|"):
        for piece in cell.split(separator):
            assert piece.lstrip()[:1] not in ("=", "+", "-", "@"), (separator, piece)
    assert cell.replace("'", "") == name.replace('\\"', '"')  # only quotes added


# ---------------------------------------------------------------- finding 9: autosave


def broken_recovery_folder() -> Path:
    """The recovery folder made unwritable in a way that holds even for root: a file in its place."""
    from rosterkit.editing import recovery

    folder = recovery.recovery_dir()
    folder.parent.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(folder, ignore_errors=True)
    folder.write_text("not a folder", encoding="utf-8")
    return folder


def test_finding9_failing_autosave_tells_once_and_keeps_trying(registry):
    from rosterkit.editing.document import Document
    from rosterkit.files.rosters import load_roster
    from rosterkit.workspace import open_value

    session = Document(open_value(load_roster(IRON).roster, registry, path=IRON))
    folder = broken_recovery_folder()

    def edit(name: str) -> str | None:
        session.apply(session.roster.model_copy(update={"name": name}), "rename")
        return session.write_recovery()

    told = edit("First")
    assert told is not None and str(folder) in told and "ctrl+s" in told
    assert edit("Second") is None and edit("Third") is None  # said once, however many edits fail
    folder.unlink()  # the folder can be written again: the next edit's autosave works
    assert edit("Fourth") is None
    assert session.recovery.file.is_file() and not session.autosave_failing
    session.recovery.file.unlink()
    shutil.rmtree(folder)
    folder.write_text("not a folder", encoding="utf-8")
    assert edit("Fifth") is not None  # failing anew after working: said again
    session.close()


async def test_finding9_failing_autosave_notifies_in_the_interface(registry, tmp_path, monkeypatch):
    from test_tui_flows import WIDE, app_for, vanguard

    import rosterkit.tui.app as tui_app

    monkeypatch.setattr(tui_app, "AUTOSAVE_DELAY", 0.01)
    path = vanguard(tmp_path)
    broken_recovery_folder()
    app = app_for(registry, tmp_path, path)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        for _ in range(3):
            await pilot.press("d")  # duplicate a unit: unsaved work to keep
            for _ in range(50):
                await pilot.pause(0.02)
                if app.screen.session.autosave_failing:
                    break
            await app.workers.wait_for_complete()
            await pilot.pause()
        told = [n for n in app._notifications if n.title == "Autosave failed"]
        assert len(told) == 1 and "Cannot keep unsaved changes" in told[0].message
        assert not told[0].markup


@needs_permissions
def test_finding9_a_figures_folder_that_cannot_be_searched_is_not_an_internal_error(tmp_path):
    home = tmp_path / "home"
    folder = home / "figures"
    folder.mkdir(parents=True)
    roster = tmp_path / "army.toml"
    shutil.copy(IRON, roster)
    folder.chmod(0)
    try:
        r = rosterkit("validate", roster, cwd=tmp_path, home=home, drop_privileges=True)
    finally:
        folder.chmod(0o755)
    assert r.returncode == 0, r.stderr  # the list names none of the player's own figures: checked as usual
    assert ": valid" in r.stdout and "internal error" not in r.stderr


@needs_permissions
def test_finding9_a_home_folder_that_cannot_be_read_leaves_no_recovery_to_offer(tmp_path):
    """Looking for work to recover in a folder that cannot be read finds none (never a crash on
    opening a roster whose ruleset comes from elsewhere)."""
    home = tmp_path / "home"
    (home / "recovery").mkdir(parents=True)
    home.chmod(0)
    script = ("from rosterkit.editing import recovery; "
              "print(recovery.find_recoveries('abc'), recovery.all_recoveries(), recovery.others_open('abc', None))")
    command = [sys.executable, "-c", script]
    if os.geteuid() == 0:
        command = ["setpriv", "--inh-caps=-all", "--bounding-set=-all", *command]
    try:
        r = subprocess.run(command, capture_output=True, text=True, timeout=LIMIT, check=False,
                           env=dict(os.environ, ROSTERKIT_HOME=str(home), PYTHONPATH=str(Path(__file__).parents[1])))
    finally:
        home.chmod(0o755)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[] [] []"
