"""GET /healthz/ready on a live server tells the truth about the rooms' Redis link: 503 while
Redis is stopped or hangs, 200 again once it is back; /healthz/live answers all along.
The Redis is the test's own (never the machine's shared one)."""
import os
import signal
import time

from tests.hardening.test_it_survives_outages import RedisServer
from tests.live import embedded_env, get_json, migrate, start_daphne


def wait_for_status(url: str, status: int, timeout: float = 20.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        answer = get_json(url, timeout=10)
        if answer["status"] == status or time.monotonic() > deadline:
            return answer
        time.sleep(0.2)


def test_ready_fails_while_redis_is_down_or_hangs_and_recovers(tmp_path):
    redis = RedisServer(tmp_path)
    redis.start()
    env = embedded_env(tmp_path, SERVER_HEARTBEAT_SECONDS="0.5")
    migrate(env)
    server = start_daphne(tmp_path, {**env, "REDIS_URL": f"redis://127.0.0.1:{redis.port}/0"})
    ready, live = server.url + "/healthz/ready", server.url + "/healthz/live"
    try:
        assert server.wait_ready()["body"]["redis"] == {"ok": True, "used": True}

        redis.stop()
        down = wait_for_status(ready, 503)
        assert down["status"] == 503, down
        assert down["body"]["redis"] == {"ok": False, "used": True}
        assert down["body"]["database"]["ok"] and down["body"]["scheduler"]["ok"]
        assert get_json(live)["status"] == 200

        redis.start()  # the same port again
        back = wait_for_status(ready, 200)
        assert back["status"] == 200 and back["body"]["redis"] == {"ok": True, "used": True}, back

        # A Redis that keeps the connection open but answers nothing: the PING times out.
        os.kill(redis.process.pid, signal.SIGSTOP)
        try:
            hung = wait_for_status(ready, 503)
            assert hung["status"] == 503 and hung["body"]["redis"]["ok"] is False, hung
        finally:
            os.kill(redis.process.pid, signal.SIGCONT)
        assert wait_for_status(ready, 200)["status"] == 200
    finally:
        server.stop()
        redis.stop()
