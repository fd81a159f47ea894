"""Settings from the environment. SQLite file by default so a new user needs no server."""
import os
import secrets
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent
INSTANCE_DIR = BASE_DIR / "instance"


def database_url(url: str) -> str:
    """An SQLAlchemy URL for DATABASE_URL-style input; empty means the SQLite file."""
    for prefix in ("postgres://", "postgresql://"):  # psycopg2 is the driver we ship
        if url.startswith(prefix):
            url = "postgresql+psycopg2://" + url[len(prefix):]
    return url or f"sqlite:///{INSTANCE_DIR / 'sass.db'}"


def _secret_key() -> str:
    """SECRET_KEY from the environment; otherwise one kept in instance/ so sessions survive restarts."""
    key = os.environ.get("SECRET_KEY")
    if key:
        return key
    INSTANCE_DIR.mkdir(exist_ok=True)
    path = INSTANCE_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
    return path.read_text().strip()


class Config:
    SECRET_KEY = _secret_key()
    SQLALCHEMY_DATABASE_URI = database_url(os.environ.get("DATABASE_URL", ""))
    SQLALCHEMY_ENGINE_OPTIONS = {"pool_pre_ping": True}
    MAX_CONTENT_LENGTH = 2 * 1024 * 1024  # uploads (CSV, NRTM, backups) are small
    # Restores and NRTM imports at once across all workers (app/services/upload_slots.py): with gunicorn -w 4,
    # two workers always stay free for everyone else.
    UPLOAD_SLOTS = int(os.environ.get("UPLOAD_SLOTS", "2"))
    # How long an SQLite writer waits for another's write to finish. The longest write is a 2 MB upload (about a
    # second, bench/bench_uploads.py) and at most UPLOAD_SLOTS run at once, so 10 s is ample even on a loaded
    # machine, and short of gunicorn's 30 s worker timeout: a stuck request answers "busy", not a killed worker.
    SQLITE_BUSY_TIMEOUT_MS = 10_000
    WTF_CSRF_TIME_LIMIT = None  # a TO keeps one page open all day
    SESSION_COOKIE_SAMESITE = "Lax"
    REMEMBER_COOKIE_SAMESITE = "Lax"
    APP_NAME = "SASS"
