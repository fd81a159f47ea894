"""Command-line tools: `flask create-admin`; `flask venue` (what `make venue` runs); `flask push-send` (the push
sender as a process of its own, deploy/systemd/sass-push.service)."""
import ipaddress
import os
import shutil
import signal
import socket
import sys
import threading

import click
from flask import Flask

from .extensions import db
from .core import qr
from .models import User
from .services.push import sender as push_sender, settings as push_settings


def register_cli(app: Flask) -> None:
    register_venue(app)
    register_push_send(app)

    @app.cli.command("create-admin")
    @click.option("--email", prompt=True)
    @click.option("--password", prompt=True, hide_input=True, confirmation_prompt=True)
    def create_admin(email: str, password: str) -> None:
        """Create a site admin (or promote an existing account) who can see and export every tournament."""
        email = email.strip().lower()
        if len(password) < 8:
            raise click.BadParameter("use at least 8 characters", param_hint="password")
        user = db.session.execute(db.select(User).filter_by(email=email)).scalar_one_or_none()
        if user is None:
            user = User(email=email)
            db.session.add(user)
        user.set_password(password)
        user.is_admin = True
        db.session.commit()
        click.echo(f"Admin {email} is ready.")


def lan_address() -> str:
    """This machine's address on the local network: the one its default route leaves from. Connecting a UDP
    socket only asks the kernel for a route; nothing is sent. 127.0.0.1 when there is no network at all."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 9))
            return s.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def venue_command(address: str, port: int, workers: int) -> tuple[str, list[str]]:
    """The address phones use and the gunicorn command line serving SASS to them on every interface."""
    public = f"http://{address}:{port}"
    gunicorn = shutil.which("gunicorn", path=os.path.dirname(sys.executable)) or shutil.which("gunicorn")
    return public, [gunicorn or "gunicorn", "--workers", str(workers), "--threads", "4",
                    "--bind", f"0.0.0.0:{port}", "--no-control-socket", "wsgi:app"]


def register_venue(app: Flask) -> None:
    @app.cli.command("venue")
    @click.option("--port", type=int, default=lambda: int(os.environ.get("PORT") or 5000), show_default="5000")
    @click.option("--workers", type=int, default=2, show_default=True)
    def venue(port: int, workers: int) -> None:
        """Serve SASS to the phones in the hall: gunicorn on every interface, with PUBLIC_URL set to this
        laptop's address on the local network (VENUE_ADDRESS overrides it), shown with a QR code."""
        chosen = os.environ.get("VENUE_ADDRESS", "").strip()
        address = chosen or lan_address()
        try:
            ipaddress.ip_address(address)
        except ValueError:
            raise click.BadParameter(f"{address!r} is not an IP address", param_hint="VENUE_ADDRESS") from None
        public, command = venue_command(address, port, workers)
        click.echo(f"\nPhones open:  {public}\n")
        qr.terminal(public)
        if not chosen and ipaddress.ip_address(address).is_loopback:
            click.echo("No network found: only this computer can open that address. Join the hall's Wi-Fi and "
                       "start again (or set VENUE_ADDRESS).")
        click.echo(f"Open {public} on this laptop too; let the firewall accept port {port}. Ctrl+C stops.\n")
        sys.stdout.flush()
        os.execve(command[0], command, {**os.environ, "PUBLIC_URL": public})


def register_push_send(app: Flask) -> None:
    @app.cli.command("push-send")
    @click.option("--poll-seconds", type=float, default=1.0, show_default=True,
                  help="how often the queue is looked at (a publish in a worker cannot wake this process)")
    def push_send(poll_seconds: float) -> None:
        """Send the queued push messages from this process until SIGTERM or SIGINT; run it at a low CPU priority
        (its unit says Nice=19) with PUSH_SENDER=0 for the gunicorn workers."""
        off = push_settings.why_off(app)
        if off is not None:
            click.echo(f"push-send: push is off on this server ({off}); nothing to send.")
            return
        stopped = threading.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: stopped.set())
        click.echo(f"push-send: sending queued push messages, looking every {poll_seconds:g} s.")
        push_sender.serve_forever(app, poll_seconds, stopped)
