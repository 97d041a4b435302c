"""`manage.py serve` is the one way the site's server is started (games/management/commands/serve.py)."""
import http.client
import json
import re

import pytest
import yaml
from django.core.management import CommandError, call_command

from tests.live import PROJECT, embedded_env, running_site

SERVE = "python manage.py serve --host 0.0.0.0 --port 8000"


def test_it_is_how_the_makefile_the_image_compose_and_the_readme_start_the_server():
    makefile = (PROJECT / "Makefile").read_text()
    run_recipe = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert "$(BIN)/python manage.py serve --host $(HOST) --port $(PORT)" in run_recipe
    dockerfile = (PROJECT / "Dockerfile").read_text()
    cmd = re.search(r"^CMD (.+)$", dockerfile, re.M).group(1)
    assert " ".join(json.loads(cmd)) == SERVE
    command = yaml.safe_load((PROJECT / "docker-compose.yml").read_text())["services"]["web"]["command"]
    web = " ".join(command)
    assert web.endswith(SERVE)
    production = (PROJECT / "README.md").read_text().split("## Production", 1)[1].split("\n## ", 1)[0]
    assert f".venv/bin/{SERVE}" in production
    # No other way is documented: no `daphne` command line in any of them.
    for text in (run_recipe, cmd, web, production):
        assert not re.search(r"""(^|[\s/`"'])daphne\b""", text), text


@pytest.mark.parametrize("options, message", [
    ({"host": "localhost"},
     "--host must be an IP address such as 127.0.0.1 or 0.0.0.0, got 'localhost'"),
    ({"host": "0.0.0.0", "port": 0}, "--port must be between 1 and 65535, got 0"),
    ({"port": 70000}, "--port must be between 1 and 65535, got 70000"),
])
def test_it_refuses_bad_options_before_starting_anything(options, message):
    with pytest.raises(CommandError) as refused:
        call_command("serve", **options)
    assert str(refused.value) == message


def test_it_serves_without_an_access_log_or_a_server_header(tmp_path):
    with running_site(tmp_path, embedded_env(tmp_path)) as server:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        conn.request("GET", "/no-such-page/")
        response = conn.getresponse()
        response.read()
        assert response.status == 404 and response.getheader("Server") is None
    output = server.log_path.read_text()
    assert "Not Found: /no-such-page/" in output  # Django's warning: logging works
    assert '"GET /no-such-page/"' not in output  # and no access-log line was written
