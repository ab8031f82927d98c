"""Look tests: the main screens at a fixed terminal size, in two languages (pytest-textual-snapshot).

Update the pictures after a deliberate change with ``pytest tests/companion/test_app_snapshots.py --snapshot-update``.
"""

import pytest

from tests.companion.app_helpers import SIZE, demo_app, hints_shown, manual_app, wait_until


async def hints_settled(pilot) -> None:
    await wait_until(pilot, lambda: hints_shown(pilot.app.screen), what="hints never settled")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_table_screen_with_hints(snap_compare, lang):
    app, _, _ = demo_app(seed=3, lang=lang, teach=True)
    assert snap_compare(app, terminal_size=SIZE, run_before=hints_settled)


def test_table_screen_in_russian_without_hints(snap_compare):
    app, _, _ = demo_app(seed=8, lang="ru", hints=False)

    async def settle(pilot) -> None:
        await pilot.pause(0.1)

    assert snap_compare(app, terminal_size=SIZE, run_before=settle)


def test_yaku_reference_screen(snap_compare):
    app, _, _ = demo_app(seed=3, hints=False)

    async def open_reference(pilot) -> None:
        await pilot.pause(0.05)
        await pilot.press("r")
        await pilot.pause(0.05)

    assert snap_compare(app, terminal_size=SIZE, run_before=open_reference)


def test_manual_deal_dialog(snap_compare):
    app, _, _ = manual_app(lang="uk")

    async def settle(pilot) -> None:
        await pilot.pause(0.1)

    assert snap_compare(app, terminal_size=SIZE, run_before=settle)
