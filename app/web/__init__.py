"""The web layer: blueprints (app/web/views), forms, the access policy, the page cache, players' sessions and the
template helpers. Routes parse a request, call a service, render."""
