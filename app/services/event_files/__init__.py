"""Whole events as files: backups and restores, NRTM export and import, CSV exports, upload slots."""
