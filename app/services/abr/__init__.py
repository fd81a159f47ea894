"""Results to AlwaysBeRunning (ABR), the site every sanctioned event ends on (docs/api.md, "AlwaysBeRunning").

`contract` is what ABR's /api/nrtm answers mean (pure), `client` the one HTTP request, `uploads` the queue in the
database (one row per version of the file, claimed by a conditional UPDATE), `sender` the background thread each
worker process runs to send what is due, so a request only ever queues.
"""
