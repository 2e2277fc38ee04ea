"""``ndcg-lab``: one command for the app and its tools. Each command has its help; bad arguments are one line on stderr
and exit status 2; ``lesson check`` and ``eval`` do what ``python -m ndcg_core.classroom check`` and ``ndcg-lab-eval``
do; ``serve`` runs Streamlit on this checkout's ``serve.py`` and keeps an install's rooms out of site-packages."""

import socket
import tomllib
from pathlib import Path

import pytest

from ndcg_lab import app_dir
from ndcg_lab.cli import default_data_dir, main
from support import ROOT, TREC

LESSON = ROOT / "lessons" / "ndcg-in-20-minutes.en.toml"


def status(argv: list[str]) -> int | str | None:
    """``main``'s exit status, whether it returns it or argparse exits with it."""
    try:
        return main(argv)
    except SystemExit as exit_:
        return exit_.code


def test_the_console_scripts_are_declared():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts == {"ndcg-lab": "ndcg_lab.cli:script", "ndcg-lab-eval": "ndcg_core.trec.cli:script"}


@pytest.mark.parametrize(
    "argv, usage",
    [
        ([], "usage: ndcg-lab "),
        (["serve"], "usage: ndcg-lab serve [-h] [--port P] [--address A]"),
        (["lesson"], "usage: ndcg-lab lesson "),
        (["lesson", "check"], "usage: ndcg-lab lesson check [-h] FILE"),
        (["eval"], "usage: ndcg-lab eval "),
        (["compare"], "usage: ndcg-lab compare "),
        (["deploy"], "usage: ndcg-lab deploy "),
    ],
)
def test_every_command_has_help(argv, usage, capsys):
    assert status([*argv, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(usage)
    if not argv:
        for command in ("serve", "eval", "compare", "lesson", "deploy"):
            assert f"    {command} " in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["bogus"], "ndcg-lab: argument COMMAND: invalid choice: 'bogus'"),
        ([], "ndcg-lab: the following arguments are required: COMMAND"),
        (["serve", "--port", "many"], "ndcg-lab serve: argument --port: invalid int value: 'many'"),
        (["serve", "--port", "0"], "ndcg-lab serve: --port must be between 1 and 65535, not 0"),
        (["serve", "--address", "the lab"], "ndcg-lab serve: --address must be an IP address"),
        (["lesson", "check"], "ndcg-lab lesson check: the following arguments are required: FILE"),
        (["lesson", "grade", "x.toml"], "ndcg-lab lesson: argument COMMAND: invalid choice: 'grade'"),
        (["eval", str(TREC / "qrels.test")], "ndcg-lab eval: the following arguments are required: RUN"),
        (
            ["eval", "-m", "bogus", str(TREC / "qrels.test"), str(TREC / "results.test")],
            "ndcg-lab eval: unknown measure 'bogus'",
        ),
        (["deploy", "up", "--replicas", "0"], "deploy: --replicas must be at least 1, not 0"),
        (["deploy", "down"], "deploy: argument command: invalid choice: 'down'"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(argv, message, capsys):
    assert status(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(message) and captured.err.count("\n") == 1, captured.err


def test_deploy_names_this_command_in_its_usage(capsys):
    with pytest.raises(SystemExit):
        main(["deploy", "up", "--replicas", "two"])
    assert "(ndcg-lab deploy up --replicas N --port P [--listen ADDRESS])" in capsys.readouterr().err


def test_serve_refuses_a_port_in_use(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port), "--address", "127.0.0.1"]) == 2
    assert capsys.readouterr().err == f"ndcg-lab serve: port {port} is in use\n"


def test_lesson_check_prints_a_shipped_lesson_s_outline(capsys):
    assert main(["lesson", "check", str(LESSON)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("NDCG in 20 minutes: ")


def test_the_check_command_the_lesson_page_shows_is_this_one(capsys):
    from ui.views.classroom.lesson_run import CHECK_COMMAND

    program, *args = CHECK_COMMAND.split()
    assert program == "ndcg-lab"
    assert main([str(LESSON) if arg == "FILE" else arg for arg in args]) == 0
    assert capsys.readouterr().out.startswith("NDCG in 20 minutes: ")


def test_lesson_check_names_a_bad_file_s_problem_in_one_line(tmp_path, capsys):
    bad = tmp_path / "broken.toml"
    bad.write_text('title = "x"\n[[activity]]\nkind = "guess"\n', encoding="utf-8")
    assert main(["lesson", "check", str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and "broken.toml" in captured.err


def test_eval_prints_what_trec_eval_prints(capsys):
    # out.test.a is trec_eval's own output for these files (-m all_trec); eval prints its NDCG lines.
    assert main(["eval", "-m", "ndcg", str(TREC / "qrels.test"), str(TREC / "results.test")]) == 0
    expected = [line for line in (TREC / "out.test.a").read_text().splitlines() if line.startswith("ndcg ")]
    assert capsys.readouterr().out.splitlines() == expected


def test_in_a_checkout_the_app_s_files_are_its_top_level():
    assert app_dir() == ROOT
    assert {"app.py", "serve.py"} <= {p.name for p in app_dir().iterdir()}


def test_an_installed_app_keeps_its_rooms_in_the_user_s_data_folder():
    home = Path("/home/teacher")
    assert default_data_dir({"HOME": str(home)}, installed=True) == home / ".local" / "share" / "ndcg-lab"
    assert default_data_dir({"XDG_DATA_HOME": "/data/t"}, installed=True) == Path("/data/t/ndcg-lab")
    # Told where: the store's own variables win; a checkout keeps its data/ folder.
    assert default_data_dir({"HOME": str(home), "NDCG_LAB_DATA_DIR": "/srv/rooms"}, installed=True) is None
    assert default_data_dir({"HOME": str(home), "NDCG_LAB_DATABASE_URL": "postgresql://x/y"}, installed=True) is None
    assert default_data_dir({"HOME": str(home)}, installed=False) is None
