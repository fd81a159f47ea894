"""Placeholder: being written."""
from flask import Blueprint

bp = Blueprint("auth", __name__)


@bp.post("/login")
def login():  # replaced by the real view
    return "", 501
