"""Placeholder: being written."""
from flask import Blueprint

bp = Blueprint("rounds", __name__)
