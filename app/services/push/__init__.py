"""Push to players' phones (Web Push: RFC 8030, with VAPID, RFC 8292, and message encryption, RFC 8291).

`keys` holds the server's VAPID key pair, `subscriptions` what players' pages subscribe, `outbox` what the
services queue when something happens (in the same transaction) and how the queue turns into messages and records
the push services' answers, `sender` the thread of each worker process that sends them. Whether push is offered at
all is `settings.why_off`.
"""
