"""Where the package was built from; the install rewrites this file."""

REPOSITORY: str | None = None
