"""The exit codes every `plyground` command uses besides 0."""
USAGE_ERROR = 2  # a mistake in the command or its input, said on one line
INTERRUPTED = 130  # the shell's convention for a run stopped by Ctrl-C
