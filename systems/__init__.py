"""Built-in rules systems (installed as the import package ``tabletop_systems``)."""
