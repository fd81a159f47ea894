"""Placeholder: being written."""
from flask import Blueprint

bp = Blueprint("players", __name__)
