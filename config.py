"""Settings from the environment. SQLite file by default so a new user needs no server."""
import os
import secrets
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

BASE_DIR = Path(__file__).resolve().parent
INSTANCE_DIR = BASE_DIR / "instance"


def database_url(url: str) -> str:
    """An SQLAlchemy URL for DATABASE_URL-style input; empty means the SQLite file."""
    for prefix in ("postgres://", "postgresql://"):  # psycopg2 is the driver we ship
        if url.startswith(prefix):
            url = "postgresql+psycopg2://" + url[len(prefix):]
    return url or f"sqlite:///{INSTANCE_DIR / 'sass.db'}"


def secret_key(environ=os.environ, instance_dir: Path = INSTANCE_DIR) -> str:
    """SECRET_KEY from the environment; otherwise one kept in instance/ so sessions survive restarts.

    Several gunicorn workers may start at once: each writes a complete key to a private temporary file and
    hard-links it into place, which fails if another got there first, so every process reads the one winner
    and nobody ever sees a half-written file. The file is 0600: it signs every session."""
    key = environ.get("SECRET_KEY", "").strip()
    if key:
        return key
    instance_dir.mkdir(exist_ok=True)
    path = instance_dir / "secret_key"
    if not path.exists():
        fd, tmp = tempfile.mkstemp(dir=instance_dir, prefix=".secret_key.")  # mkstemp makes it 0600
        try:
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_hex(32))
                f.flush()
                os.fsync(f.fileno())
            os.link(tmp, path)
        except FileExistsError:
            pass  # another process won the race: use its key
        finally:
            os.unlink(tmp)
    if path.stat().st_mode & 0o077:  # a key file from before keys were private
        try:
            path.chmod(0o600)
        except PermissionError:  # not ours to change: still usable
            pass
    key = path.read_text().strip()
    if len(key) < 32:
        raise RuntimeError(f"{path} holds no usable key (empty or short): delete it to make a new one, "
                           "or set SECRET_KEY")
    return key


def public_url(value: str) -> str:
    """PUBLIC_URL checked: the address phones use (scheme, host, optional port and prefix), without a trailing
    slash; empty means links follow the address each request came in by."""
    value = value.strip().rstrip("/")
    if value and (urlsplit(value).scheme not in ("http", "https") or not urlsplit(value).netloc
                  or urlsplit(value).query or urlsplit(value).fragment):
        raise RuntimeError(f"PUBLIC_URL should look like https://sass.example.org or http://192.168.1.20:5000, "
                           f"not {value!r}")
    return value


def abr_url(value: str) -> str:
    """ABR_URL checked: http(s), a host, no credentials in it (they have settings of their own and would reach
    logs), no trailing slash."""
    value = value.strip().rstrip("/")
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname or "@" in parts.netloc or parts.query:
        raise RuntimeError(f"ABR_URL should look like https://alwaysberunning.net, without user or password "
                           f"(ABR_USER, ABR_PASSWORD), not {value!r}")
    host = parts.hostname.lower()
    if host == "www.alwaysberunning.net" or (host == "alwaysberunning.net" and parts.scheme == "http"):
        # ABR's web server redirects these to https://alwaysberunning.net, and SASS sends no results through a
        # redirect (app/services/abr/contract.py `redirected`): refused here rather than at the first upload.
        raise RuntimeError(f"ABR_URL {value!r} is an address ABR redirects: set ABR_URL=https://alwaysberunning.net")
    return value


def _env_flag(name: str, default):
    value = os.environ.get(name)
    return default if value is None else value.strip().lower() in ("1", "true", "yes", "on")


class Config:
    SECRET_KEY = secret_key()
    SQLALCHEMY_DATABASE_URI = database_url(os.environ.get("DATABASE_URL", ""))
    MAX_CONTENT_LENGTH = 2 * 1024 * 1024  # uploads (CSV, NRTM, backups) are small
    # Restores and NRTM imports at once across all workers (app/services/event_files/upload_slots.py): with
    # gunicorn -w 4, two workers always stay free for everyone else.
    UPLOAD_SLOTS = int(os.environ.get("UPLOAD_SLOTS", "2"))
    # How long an SQLite writer waits for another's write to finish. The longest write is a 2 MB upload (about a
    # second, bench/bench_uploads.py) and at most UPLOAD_SLOTS run at once, so 10 s is ample even on a loaded
    # machine, and short of gunicorn's 30 s worker timeout: a stuck request answers "busy", not a killed worker.
    SQLITE_BUSY_TIMEOUT_MS = 10_000
    # Public pages built once per tournament version, shared by every worker (app/web/page_cache.py);
    # empty: instance/page-cache.
    PAGE_CACHE_DIR = os.environ.get("PAGE_CACHE_DIR", "")
    # Every publish keeps the event's backup here (app/services/event_files/backup.py `keep`), the last BACKUPS_KEPT per
    # event; empty: a `backups` folder beside the SQLite file, or instance/backups on PostgreSQL.
    BACKUP_DIR = os.environ.get("BACKUP_DIR", "")
    BACKUPS_KEPT = int(os.environ.get("BACKUPS_KEPT", "5"))
    # Results (and players' reports, drops, cut games) are backed up too, this many seconds after the last backup at
    # most (app/services/event_files/backup.py `follow`): one write per event per interval however many results come in
    # it. 0: only publishes write backups.
    BACKUP_FOLLOW_SECONDS = float(os.environ.get("BACKUP_FOLLOW_SECONDS", "5"))
    # How often phones poll the event's status (/t/<slug>/status.json: round, pairings version, timer), in ms; each
    # wait is drawn within ±25 % so a hall of phones does not poll in step. With a 1 s shared cache in front of
    # the status answer a publish or a timer change reaches 95 % of phones within 2.7 s (bench/bench_player_live.py,
    # docs/benchmarks.md), and the app sees about one status request a second per event whatever the phones.
    # Without such a cache every poll reaches the app: a big event then wants 10000 here.
    STATUS_POLL_MS = int(os.environ.get("STATUS_POLL_MS", "2000"))
    # How often a player's own page asks whether its parts changed (a revalidated ETag: a 304 while their table
    # is unchanged, about the cost of a status poll); a publish makes it ask at once. The opponent's report
    # shows within 1.25 times this (each wait is drawn within ±25 %): 2 s keeps it under 3 s. A player page then
    # costs the app two revalidated polls every 2 s (docs/benchmarks.md); a big event stretches it by itself
    # (PLAYER_CHECKS_PER_SECOND).
    PLAYER_CHECK_MS = int(os.environ.get("PLAYER_CHECK_MS", "2000"))
    # The most checks a second one event's player pages make together: past PLAYER_CHECK_MS times this many players
    # (500 at the defaults) each page checks less often (app/core/polling.py): 10,000 players check
    # every 40 s, and after a publish ask within 18 s (at twice this rate), so each has its new table in about 20 s.
    # 0: always PLAYER_CHECK_MS, and at once after a publish.
    PLAYER_CHECKS_PER_SECOND = int(os.environ.get("PLAYER_CHECKS_PER_SECOND", "250"))
    WTF_CSRF_TIME_LIMIT = None  # a TO keeps one page open all day
    SESSION_COOKIE_SAMESITE = "Lax"
    REMEMBER_COOKIE_SAMESITE = "Lax"
    APP_NAME = "SASS"
    # The address phones use, e.g. https://sass.example.org or http://192.168.1.20:5000 (`make venue` sets it):
    # every absolute link, QR code, slip, projector page and export is built from it, never from the Host header
    # a request came with. Empty: from the request (fine on a laptop used through its own address).
    PUBLIC_URL = public_url(os.environ.get("PUBLIC_URL", ""))
    # Session and remember-me cookies only over https: on by default when PUBLIC_URL is https, SECURE_COOKIES=1
    # or 0 to say so yourself (e.g. https at a proxy with no PUBLIC_URL).
    SECURE_COOKIES = _env_flag("SECURE_COOKIES", None)

    # A deck fetched from NetrunnerDB (app/services/nrdb/decks.py): how long the fetch may take in all, in seconds
    # (a request waits for it; an offline venue laptop fails at once), and the largest answer read (a deck's
    # answer is a few kilobytes, its description included).
    NRDB_DECK_TIMEOUT = float(os.environ.get("NRDB_DECK_TIMEOUT", "5"))
    NRDB_DECK_MAX_BYTES = 512 * 1024
    NRDB_DECK_LIMIT_PER_IP = "30/minute;300/hour"  # deck fetches from one address (a venue may share one)
    # A signed-in player's own decks (app/services/nrdb/picker.py): NetrunnerDB answers all of them at once, each
    # with its description, so the largest answer read is bigger (a thousand decks with their descriptions fit).
    NRDB_OWN_DECKS_MAX_BYTES = 8 * 1024 * 1024

    # Throttling (Flask-Limiter; see docs/security.md). memory:// counts per process: with several gunicorn
    # workers each counts on its own, so a limit is effectively multiplied by the worker count. For exact
    # limits in production point RATELIMIT_STORAGE_URI at a shared store, e.g. redis://127.0.0.1:6379
    # (`pip install redis`). RATELIMIT_ENABLED=0 turns throttling off (tests that log in a lot); never in
    # production.
    RATELIMIT_ENABLED = _env_flag("RATELIMIT_ENABLED", True)
    RATELIMIT_STORAGE_URI = os.environ.get("RATELIMIT_STORAGE_URI", "memory://")
    RATELIMIT_KEY_PREFIX = os.environ.get("RATELIMIT_KEY_PREFIX", "sass")  # several sites on one Redis: one each
    RATELIMIT_HEADERS_ENABLED = True  # Retry-After on a 429
    # A shared store that stops answering (Redis down) must not stop log-ins: each process then counts in its own
    # memory, logs it, and goes back to the store when it answers again (Flask-Limiter's fallback).
    RATELIMIT_IN_MEMORY_FALLBACK_ENABLED = True
    RATELIMIT_SWALLOW_ERRORS = True
    # A store that accepts and never answers (a hung Redis) must count as down, not hold a log-in until
    # gunicorn kills the worker: connecting and each answer wait at most this long (app/web/throttle.py).
    RATELIMIT_STORAGE_TIMEOUT_SECONDS = float(os.environ.get("RATELIMIT_STORAGE_TIMEOUT_SECONDS", "0.5"))
    LOGIN_LIMIT_PER_ACCOUNT = "10/minute"  # failed log-ins for one e-mail address
    LOGIN_LIMIT_PER_IP = "30/minute"  # log-in attempts from one address
    SIGNUP_LIMIT_PER_IP = "10/hour"
    REGISTER_LIMIT_PER_IP = "60/minute;300/hour"  # self-registrations from one address (a venue may share one)
    # Wrong report codes (app/services/online/report_codes.py, 2^30 codes): from one address, and at one player.
    REPORT_CODE_LIMIT_PER_IP = "20/minute;100/hour"
    REPORT_CODE_LIMIT_PER_PLAYER = "5/minute;20/hour"
    # A player's judge calls: one open at a time (the database's rule), and this long between two calls.
    JUDGE_CALL_COOLDOWN_SECONDS = int(os.environ.get("JUDGE_CALL_COOLDOWN_SECONDS", "60"))
    # NetrunnerDB: its address (public deck fetches and the sign-in; the tests point it at local stand-ins), and
    # this server's OAuth client there (made by NetrunnerDB's admins, on request). Players sign in with NetrunnerDB
    # (app/web/nrdb_oauth.py) only when both the client id and secret are set and PUBLIC_URL is a public name
    # (app/core/nrdb_sign_in.py): otherwise (a venue laptop) nothing about NetrunnerDB accounts shows. The client's
    # redirect address registered at NetrunnerDB must be exactly PUBLIC_URL + /nrdb/callback.
    NRDB_URL = os.environ.get("NRDB_URL", "https://netrunnerdb.com").rstrip("/")
    NRDB_CLIENT_ID = os.environ.get("NRDB_CLIENT_ID", "").strip()
    NRDB_CLIENT_SECRET = os.environ.get("NRDB_CLIENT_SECRET", "").strip()
    # How long a call to NetrunnerDB (token, account info) may take, in seconds, before the player is told it
    # could not be reached.
    NRDB_TIMEOUT = float(os.environ.get("NRDB_TIMEOUT", "10"))
    # AlwaysBeRunning, where results go (app/services/abr/, docs/api.md): its address, and the login of its upload
    # address (HTTP basic auth; ABR's admins give one, as they gave Cobra its own). Without both ABR_USER and
    # ABR_PASSWORD the TO downloads the file for ABR's Conclude form and SASS sends nothing. The password never
    # reaches a page or a log.
    ABR_URL = abr_url(os.environ.get("ABR_URL", "https://alwaysberunning.net"))
    ABR_USER = os.environ.get("ABR_USER", "")
    ABR_PASSWORD = os.environ.get("ABR_PASSWORD", "")
    # One send's whole budget (connect, upload, answer), and the most of ABR's answer read (its JSON is tiny).
    ABR_TIMEOUT_SECONDS = float(os.environ.get("ABR_TIMEOUT_SECONDS", "15"))
    ABR_ANSWER_BYTES = 64 * 1024
    # Each worker process sends queued uploads from a thread of its own, started by its first request; 0 turns it
    # off (the tests start it themselves).
    ABR_SENDER = _env_flag("ABR_SENDER", True)
    # Push to players' phones (app/services/push/, docs/api.md): "auto" pushes only from a public https PUBLIC_URL
    # (a venue laptop has no internet, and browsers subscribe only from a secure page), "on" always, "off" never.
    PUSH = os.environ.get("PUSH", "auto").strip().lower()
    # The push services a subscription may point at (origins; "*." for any subdomain): a player's subscription can
    # never make the server post anywhere else. Comma-separated in the environment.
    PUSH_SERVICES = tuple(s.strip() for s in os.environ.get("PUSH_SERVICES", "").split(",") if s.strip()) or (
        "https://fcm.googleapis.com", "https://updates.push.services.mozilla.com", "https://web.push.apple.com",
        "https://*.notify.windows.com")
    # The server's VAPID private key (PEM, or the raw key base64url) when several hosts serve SASS; else one is made
    # at first run and kept in the instance folder. Never change it: every subscription is bound to it.
    VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
    # Who the push services may contact about this server's messages (VAPID "sub": mailto: or https:); empty: the
    # PUBLIC_URL.
    PUSH_CONTACT = os.environ.get("PUSH_CONTACT", "")
    PUSH_TIMEOUT_SECONDS = float(os.environ.get("PUSH_TIMEOUT_SECONDS", "10"))
    PUSH_CONCURRENCY = int(os.environ.get("PUSH_CONCURRENCY", "16"))  # messages in flight per worker process
    # each worker's sender thread; 0 where `flask push-send` sends (deploy/systemd/sass-push.service; the tests start
    # theirs)
    PUSH_SENDER = _env_flag("PUSH_SENDER", True)
    # Behind a reverse proxy the client address is in X-Forwarded-For: say how many proxies to trust (usually
    # 1), or every visitor shares the proxy's address and its throttle. 0 = direct, headers ignored.
    TRUSTED_PROXIES = int(os.environ.get("TRUSTED_PROXIES", "0"))
