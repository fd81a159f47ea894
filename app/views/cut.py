"""Placeholder: being written."""
from flask import Blueprint

bp = Blueprint("cut", __name__)
