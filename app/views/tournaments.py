"""Placeholder: being written."""
from flask import Blueprint

bp = Blueprint("tournaments", __name__)
