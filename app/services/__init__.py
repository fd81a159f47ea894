"""Services: the glue between the database and the pure core (pairing, standings, brackets).

`init_services`, called by the application factory, wires what the services need from a running app, so nothing
depends on which modules happened to be imported: each worker's ABR sender (app/services/abr/sender.py) and push
sender (app/services/push/sender.py). The series' rating source needs no wiring: app/services/ratings.py names it
as its first source."""
from flask import Flask


def init_services(app: Flask) -> None:
    from .abr import sender
    from .push import sender as push_sender

    sender.init_app(app)
    push_sender.init_app(app)
