"""Reporting a Run: text, JSON, JUnit, HTML, badge, and pictures of what differs.

Reads: Runs (judge/) or saved JSON reports.
Hands on: strings and files for people and CI; nothing comes back into the judge.

Modules: _formats (text, JSON and JUnit), _saved (the text of saved reports), _html and
_html_tables (the page and its badge), _divergence (a divergence as HTML), _pictures and
_grid_pictures (grids, centres and rankings drawn side by side).
"""
