"""The Voila dashboards (index, dice, tutorial, play pages, gallery, table lobby and table).

This folder is data, not code: it installs as ``tabletop_widgets.notebooks`` so that a pip user
gets the pages, and ``tabletop-widgets play`` serves them from there (see ``tabletop_widgets.cli``).
``voila.json`` here is the repository's ``voila.json``: the project's Voila settings.
"""
