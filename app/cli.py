"""Command-line tools: `flask create-admin`."""
import click
from flask import Flask

from .extensions import db
from .models import User


def register_cli(app: Flask) -> None:
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
