"""spielwerk's web API: stateless rule checks and matches with seats, clocks and live events.

``create_app(Settings(database_url=...))`` builds the Litestar app; ``spielwerk serve``
runs it. Every rule, view and reason is the engine's (``spielwerk``).
"""

from spielwerk_api.app import Settings, create_app

__all__ = ["Settings", "create_app"]
