"""redgen's Jinja templates, one folder per target (cuda/, ascend/) plus common/.

This folder is installed as the package `redgen.templates` (see pyproject.toml), so a
wheel carries the templates; the file exists only to make it a package.
"""
