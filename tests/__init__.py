"""SASS's tests (docs/development.md, "Where tests live")."""
import sys

# Keep compiled modules, pytest's rewritten test modules among them, between runs even where the environment says
# not to (PYTHONDONTWRITEBYTECODE): collecting the suite took 13 s of CPU in each xdist worker without them, 4 s
# with. Imported before tests/conftest.py, so the app's modules are kept too.
sys.dont_write_bytecode = False
