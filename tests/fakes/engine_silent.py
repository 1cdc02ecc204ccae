"""Never answers `go`, not even `stop`: it sleeps."""
import time

from fakelib import serve

serve(lambda go: time.sleep(60))
