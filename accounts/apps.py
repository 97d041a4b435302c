from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self):
        from . import receivers  # noqa: F401  (connects the signal receivers)
