"""The server's runtime pieces: what the ASGI entry point (config/asgi.py) does to Daphne, Twisted
and Autobahn, the middleware and handlers the settings name, and what the apps share at run time
(client addresses, rate limits, database threads, the hourly buffer, the embedded beat).

They live apart from config/ so that config/ holds the settings and the entry points that put
the site together, and nothing that runs: a module here is code with tests of its own, imported
by the apps and by config/, and it imports no app and nothing from config/ (the settings are
read through ``django.conf.settings``). docs/architecture.md ("Packages") lists each module.
"""
