"""The app's responsiveness: start-up time and the time from a state change to the first hint.

    python tests/benchmarks/bench_app.py [--runs N]

Start-up is measured in a fresh interpreter (imports included) up to the first rendered table
screen, headless at 120x40. The hint latency is the time from a state change to the first ``HintsReady``
shown in the hints panel, with the app's default schedule (first report after 100 ms of search),
measured once the hint process is running.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time

STARTUP = r"""
import time, asyncio
t0 = time.perf_counter()
from companion.app.app import KibitzApp
from companion.app.koikoi_screen import KoiKoiScreen
from companion.session import KoiKoiSession
from engine.koikoi.bots import GreedyBot
from engine.koikoi.profile import KoiKoiProfile

async def main():
    session = KoiKoiSession(KoiKoiProfile.load("default"), mode="demo", seed=1, bot=GreedyBot())
    app = KibitzApp(KoiKoiScreen(session, hints=False))
    async with app.run_test(size=(120, 40)) as pilot:
        while not app.screen.query("#field") or session.view is None:
            await pilot.pause(0.005)
        print(time.perf_counter() - t0)
asyncio.run(main())
"""


def startup_seconds() -> float:
    started = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", STARTUP], capture_output=True, text=True, check=True)
    inner = float(out.stdout.strip().splitlines()[-1])
    return max(inner, time.perf_counter() - started - 0.0)


async def hint_latencies(positions: int) -> list[float]:
    from textual.widgets import Static

    from companion.app.app import KibitzApp
    from companion.app.koikoi_screen import KoiKoiScreen
    from companion.session import KoiKoiSession
    from engine.koikoi.bots import GreedyBot
    from engine.koikoi.profile import KoiKoiProfile

    latencies = []
    for seed in range(positions):
        session = KoiKoiSession(KoiKoiProfile.load("default"), mode="demo", seed=seed, bot=GreedyBot())
        screen = KoiKoiScreen(session, bot_delay=0.0)
        app = KibitzApp(screen)
        async with app.run_test(size=(120, 40)) as pilot:
            while session.view is None or session.state.turn != session.you or session.bot_to_move:
                await pilot.pause(0.01)
            await pilot.pause(1.5)  # the hint process has started and answered once
            started = time.perf_counter()
            screen.state_changed()
            while "samples" not in str(screen.query_one("#hints", Static).render()):
                await pilot.pause(0.002)
            latencies.append(time.perf_counter() - started)
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    starts = [startup_seconds() for _ in range(args.runs)]
    print(f"start-up to first screen: median {statistics.median(starts):.2f} s, max {max(starts):.2f} s")
    hints = asyncio.run(hint_latencies(args.runs))
    print(f"state change to first hint: median {statistics.median(hints) * 1e3:.0f} ms, "
          f"max {max(hints) * 1e3:.0f} ms")


if __name__ == "__main__":
    main()
