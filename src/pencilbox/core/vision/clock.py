"""The clock of the reader's time budgets (the repair search, the rules' confirmation, the
regrouping of crowded digits): the CPU time of the thread that reads.

By the wall clock, a picture's status hung on the machine's load: third-party screenshots
whose confirmation takes 2-4 s idle ran past its safety stop with other work beside them
and came out doubted. The thread's CPU time counts the reader's own work only, so a busy
machine reads a picture as an idle one does, only later; a reader on a web server's worker
thread is not charged for the other threads' reads either.
"""

from __future__ import annotations

import time


def spent() -> float:
    """Seconds of CPU time this thread has used: the budgets compare two of these."""
    return time.thread_time()
