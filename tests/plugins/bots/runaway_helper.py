"""What the escaping engine and bot share: a helper that leaves everything a process
group or session reaches."""
import os
import signal
import time


def escape() -> int:
    """Start a helper that calls setsid() (a session and group of its own) and forks
    again, its parent exiting at once (so that it is nobody's child but whoever adopts
    orphans), deaf to SIGTERM and SIGHUP, its standard streams on /dev/null, sleeping
    for five minutes; its pid, once it runs."""
    ours, theirs = os.pipe()
    middle = os.fork()
    if middle == 0:
        os.close(ours)
        os.setsid()
        if os.fork() == 0:
            for number in (signal.SIGTERM, signal.SIGHUP):
                signal.signal(number, signal.SIG_IGN)
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            os.write(theirs, f"{os.getpid()}\n".encode())
            os.close(theirs)
            time.sleep(300)
        os._exit(0)
    os.close(theirs)
    os.waitpid(middle, 0)
    with os.fdopen(ours) as pipe:
        return int(pipe.readline())
