"""A form filled from a POST body and validated, on a bare Flask app: the forms' own rules, without a database or
a route (the CSRF token is the app's rule, checked by CSRFProtect, so it is off here)."""
from __future__ import annotations

import pytest
from flask import Flask
from werkzeug.datastructures import MultiDict


@pytest.fixture
def submit():
    app = Flask(__name__)
    app.config.update(SECRET_KEY="forms", WTF_CSRF_ENABLED=False)
    with app.test_request_context(method="POST"):
        def do(form_class, *args, **body):
            """The form after validate(); `form.ok` holds validate()'s answer."""
            form = form_class(*args, formdata=MultiDict(body))
            form.ok = form.validate()
            return form
        yield do
