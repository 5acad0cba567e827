"""HAProxy's configuration for a site, as ``fanfold deploy haproxy`` renders it
(``docs/proxy.md``, "The site's HAProxy configuration").

* The rendered file for one, two and three processes passes ``haproxy -c``, and the shipped
  example (``deploy/haproxy-site.cfg``) is the render of the command the guide gives.
* A site behind it, started as the guide says (``haproxy -W -db -f FILE``, a self-signed
  certificate, free ports in place of 80 and 443) in front of two and then three ``fanfold
  serve`` processes on PostgreSQL: plain HTTP redirects to HTTPS; over HTTPS the lobby loads, a
  table is opened, played and followed over a WebSocket, each on the process that opened it;
  ``/metrics`` is refused; a sign-in's cookies are ``Secure`` even when the client says it
  came over plain HTTP; each request has its log line with the table's id; and with every
  process gone HAProxy answers with the maintenance page.
* A table stays with the process that took it over: opened by s1 and played there, then s1
  stopped (SIGTERM: out of HAProxy's service before its port closes; every request
  answered 200, none refused) and the table played on s2; s1 started again and up, the
  table's requests (HAProxy's log names the server) still go to s2, no hand-over back,
  while a new table opened by s1 is played on s1.
* The counts per client outlive a reload: a client over the request limit is still refused
  by the new worker right after ``kill -USR2`` (the old one hands its counts over through the
  ``peers`` section's local peer); so does the stick table of where each table went.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from fanfold.cli.app import app
from fanfold.cli.deploy import HAProxySite, maintenance_response, render_haproxy
from fanfold.cli.deploy_group import ProcessGroup
from fanfold.server.ownership import opened_by
from tests.server.support import JSON, ROOT, TOKEN, free_port, start_process, wait_ready
from tests.server.test_ownership import pg_url  # noqa: F401 (fixture)
from tests.server.test_store import postgres_cluster  # noqa: F401 (fixture)

#: The shipped example: ``fanfold deploy haproxy`` with these options (docs/deploy.md).
EXAMPLE = ROOT / "deploy" / "haproxy-site.cfg"
EXAMPLE_OPTIONS = ("--processes", "3", "--base-port", "8001", "--health-base-port", "9001")
#: The lobby page's title.
LOBBY = "<title>fanfold: play the Fan family of games</title>"

runner = CliRunner()


def haproxy_binary() -> str:
    binary = shutil.which("haproxy") or "/usr/sbin/haproxy"
    if not Path(binary).exists():
        pytest.fail(
            "haproxy is missing: the test set-up installs Debian's haproxy package",
            pytrace=False,
        )
    return binary


def make_certificate(folder: Path) -> Path:
    """A self-signed certificate for localhost and its key in one PEM file, as HAProxy's
    ``crt`` reads it."""
    key, certificate = folder / "key.pem", folder / "certificate.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes"),
            *("-subj", "/CN=localhost", "-days", "2"),
            *("-keyout", str(key), "-out", str(certificate)),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    pem = folder / "fanfold.pem"
    pem.write_text(certificate.read_text() + key.read_text())
    pem.chmod(0o600)
    return pem


def free_ports(count: int) -> int:
    """The first of ``count`` consecutive loopback ports that nothing listens on now."""
    for _ in range(100):
        first = free_port()
        if first + count > 65536:
            continue
        probes = [socket.socket() for _ in range(count)]
        try:
            for offset, probe in enumerate(probes):
                probe.bind(("127.0.0.1", first + offset))
            return first
        except OSError:
            continue
        finally:
            for probe in probes:
                probe.close()
    raise AssertionError(f"no {count} consecutive free ports")


def privileges() -> tuple[str, ...]:
    """The guide's command drops root (``user haproxy``, ``chroot``): a test run by another
    user keeps its own."""
    return () if os.geteuid() == 0 else ("--user", "", "--chroot", "")


def render(folder: Path, *options: str) -> Path:
    """``fanfold deploy haproxy OPTIONS --out FOLDER/haproxy.cfg``; the file."""
    out = folder / "haproxy.cfg"
    result = runner.invoke(app, ["deploy", "haproxy", *options, "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


class Site:
    """HAProxy's ports and files for a site on loopback."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.http, self.https, self.peer = free_port(), free_port(), free_port()
        self.socket = folder / "admin.sock"
        self.certificate = make_certificate(folder)

    def options(self) -> tuple[str, ...]:
        return (
            *("--certificate", str(self.certificate), "--bind-address", "127.0.0.1"),
            *("--http-port", str(self.http), "--https-port", str(self.https)),
            *("--stats-socket", str(self.socket), "--log", "stdout"),
            *("--peers", f"lb1=127.0.0.1:{self.peer}"),
            *privileges(),
        )

    def ask(self, command: str) -> str:
        """A command on HAProxy's stats socket, and its answer."""
        with socket.socket(socket.AF_UNIX) as connection:
            connection.settimeout(5)
            connection.connect(str(self.socket))
            connection.sendall(command.encode() + b"\n")
            answer = b""
            while chunk := connection.recv(65536):
                answer += chunk
        return answer.decode()


@contextmanager
def running(site: Site, config: Path, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """HAProxy as the guide runs it in the foreground, ``haproxy -W -db -f FILE`` (a master
    and its worker); yields the master once the HTTPS port answers and the stats socket is
    there (seen missing an instant after the port on a loaded machine). Stopped at the end."""
    assert subprocess.run([haproxy_binary(), "-c", "-f", str(config)], check=False).returncode == 0
    with log.open("ab") as output:
        master = subprocess.Popen(
            [haproxy_binary(), "-W", "-db", "-f", str(config)],
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 30
        while True:
            assert master.poll() is None, log.read_text()
            with socket.socket() as probe:  # the HTTPS port, and the operator's socket
                if probe.connect_ex(("127.0.0.1", site.https)) == 0 and site.socket.exists():
                    break
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        yield master
    finally:
        master.terminate()
        master.wait(timeout=30)


# ----------------------------------------------------------------------- the file


@pytest.mark.parametrize("processes", [1, 2, 3])
def test_the_rendered_configuration_passes_haproxy_check(processes: int, tmp_path: Path) -> None:
    site = Site(tmp_path)
    config = render(tmp_path, "--processes", str(processes), *site.options())
    checked = subprocess.run(
        [haproxy_binary(), "-c", "-f", str(config)], capture_output=True, text=True, timeout=60
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    text = config.read_text()
    for number in range(1, processes + 1):  # each process in both backends, the same name
        assert re.search(rf"^    server s{number} 127\.0\.0\.1:\d+ check port \d+$", text, re.M)
        # the backups (no process ready) never enter the tables' stick table
        assert re.search(rf"^    server s{number}-live \S+ backup non-stick track ", text, re.M)
    assert f"server s{processes + 1} " not in text
    # where each table went last, kept across reloads by the peers of the counts
    assert "stick-table type string len 64 size 1m expire 1h peers counts\n" in text
    assert "!{ var(txn.table),in_table(tables) }\n" in text
    # the checks of /ready say they are HAProxy's (a stopping process waits for those only),
    # and no client's request carries that header to a process
    assert "    http-check send hdr X-Fanfold-Check haproxy\n" in text
    assert re.search(r"^    http-request del-header X-Fanfold-Check\b", text, re.M)
    # a reading request answered 503 or not at all is tried on another process; others not
    assert "    retry-on conn-failure empty-response 503\n" in text
    assert "    http-request disable-l7-retry unless METH_GET\n" in text
    assert f"errorfile 503 {tmp_path / 'fanfold-maintenance.http'}" in text
    assert (tmp_path / "fanfold-maintenance.http").read_bytes() == maintenance_response()


def test_the_shipped_example_is_the_guides_render() -> None:
    result = runner.invoke(app, ["deploy", "haproxy", *EXAMPLE_OPTIONS])
    assert result.exit_code == 0, result.output
    assert EXAMPLE.read_text() == result.stdout, (
        "deploy/haproxy-site.cfg is out of date: python -m fanfold deploy haproxy "
        + " ".join(EXAMPLE_OPTIONS)
        + " > deploy/haproxy-site.cfg"
    )


def test_the_maintenance_page_is_a_whole_http_answer() -> None:
    answer = maintenance_response()
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.0 503 ")
    assert f"Content-Length: {len(body)}".encode() in head
    assert b"</html>" in body
    result = runner.invoke(app, ["deploy", "maintenance-page"])
    assert result.exit_code == 0
    assert result.stdout_bytes == answer


@pytest.mark.parametrize(
    ("options", "sentence"),
    [
        (("--base-port", "8000", "--health-base-port", "8001"), "overlap"),
        (("--peers", "lb2=10.0.0.2:10000"), "must list this HAProxy too"),
        (("--peers", "lb2"), "--peers takes NAME=HOST:PORT"),
        (("--http-port", "443"), "are both 443"),
        (("--server-name", "s/"), "the server name 's/'"),
        (("--log", "not a place"), "--log 'not a place'"),
    ],
)
def test_options_that_would_not_work_are_refused(options: tuple[str, ...], sentence: str) -> None:
    result = runner.invoke(app, ["deploy", "haproxy", "--processes", "2", *options])
    assert result.exit_code == 2
    assert sentence in result.output


def test_renders_the_site_it_is_given() -> None:
    text = render_haproxy(
        HAProxySite(
            ProcessGroup(2, server_address="10.0.0.5", server_name="b"),
            peer_name="lb2",
            peers=(("lb1", "10.0.0.1:10000"), ("lb2", "10.0.0.2:10000")),
            request_rate=20,
        )
    )
    assert "    server b2 10.0.0.5:8001 check port 9001\n" in text
    assert "    peer lb1 10.0.0.1:10000\n    peer lb2 10.0.0.2:10000\n" in text
    assert "localpeer lb2\n" in text
    assert "if { sc_http_req_rate(0) gt 20 }" in text
    assert "bind :443 ssl crt /etc/haproxy/certs/fanfold.pem" in text
    assert "{{" not in text


def test_the_rendered_command_names_the_group_without_its_defaults() -> None:
    group = ProcessGroup(2, health_base_port=9500, server_address="10.0.0.5", server_name="b")
    site = HAProxySite(group, request_rate=20)
    assert site.command() == (
        "fanfold deploy haproxy --processes 2 --health-base-port 9500 --server-address 10.0.0.5 "
        "--server-name b --request-rate 20"
    )
    assert HAProxySite(ProcessGroup(3)).command() == "fanfold deploy haproxy --processes 3"
    # fanfold deploy systemd names the address --host, itself.
    assert group.option_words(address=False) == [
        *("--processes", "2", "--health-base-port", "9500", "--server-name", "b")
    ]


# ----------------------------------------------------------------------- the site


def sign_up_and_in(site: httpx.Client, name: str) -> list[str]:
    """Create an account, forget its cookies and sign in again claiming plain HTTP; the
    sign-in's ``Set-Cookie`` lines."""
    credentials = {"name": name, "password": "correct horse"}
    made = site.post("/api/accounts", json=credentials)
    assert made.status_code == 200, made.text
    site.cookies.clear()
    answer = site.post("/api/session", json=credentials, headers={"X-Forwarded-Proto": "http"})
    assert answer.status_code == 200, answer.text
    site.cookies.clear()
    return answer.headers.get_list("set-cookie")


def play(site: httpx.Client, table: str, token: str, actions: int) -> JSON:
    """Play ``actions`` of the seat's actions over the API (waiting for the bot between
    them); the table's last state."""
    played = 0
    deadline = time.monotonic() + 60
    while True:
        answer = site.get(f"/api/tables/{table}", headers={TOKEN: token})
        assert answer.status_code == 200, answer.text
        state: JSON = answer.json()
        if played == actions or state["outcome"] is not None:
            return state
        if state["decider"] in state["yours"] and state["legal"]:
            body = {"token": token, "version": state["version"], "action": state["legal"][0]}
            acted = site.post(f"/api/tables/{table}/act", json=body)
            assert acted.status_code == 200, acted.text
            assert acted.json()["ok"] is True
            played += 1
        else:
            assert time.monotonic() < deadline, state
            time.sleep(0.05)


def check_the_site(site: Site, processes: int, log: Path) -> None:
    """What a player and an operator see through HAProxy in front of ``processes``."""
    plain = httpx.get(f"http://127.0.0.1:{site.http}/learn/fano?x=1", timeout=10)
    assert plain.status_code == 301
    assert plain.headers["location"] == f"https://127.0.0.1:{site.https}/learn/fano?x=1"
    base = f"https://127.0.0.1:{site.https}"
    with httpx.Client(base_url=base, verify=False, timeout=30) as client:
        lobby = client.get("/")
        assert lobby.status_code == 200
        assert LOBBY in lobby.text
        assert client.get("/static/fanfold.css").status_code == 200
        assert client.get("/api/games").status_code == 200

        # A table: opened, played over the API and followed over a WebSocket, on its opener.
        opened = client.post("/api/tables", json={"game": "morris", "seats": ["you", "random"]})
        assert opened.status_code == 200, opened.text
        table, token = opened.json()["table"], opened.json()["token"]
        opener = opened_by(table)
        assert opener in {f"s{n}" for n in range(1, processes + 1)}, table
        state = play(client, table, token, 2)
        assert state["version"] >= 2
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        try:
            opened_socket = connect(
                f"wss://127.0.0.1:{site.https}/ws/tables/{table}", ssl=context, open_timeout=30
            )
        except InvalidStatus as refused:  # HAProxy's own line for it says which timer ran out
            raise AssertionError(f"{refused}\n{log.read_text()[-3000:]}") from refused
        with opened_socket as socket_:
            socket_.send(json.dumps({"type": "hello", "token": token}))
            while (message := json.loads(socket_.recv(timeout=30)))["type"] != "state":
                assert message["type"] != "error", message
            assert message["version"] >= state["version"]

        # The processes' metrics are no one's business outside.
        assert client.get("/metrics").status_code == 403
        assert httpx.get(f"http://127.0.0.1:{site.http}/metrics", timeout=10).status_code == 403

        # The process reads the scheme HAProxy forwards (its --trusted-proxy), never the
        # client's own header: the cookies are Secure.
        cookies = sign_up_and_in(client, f"Haproxy{processes}")
        assert len(cookies) >= 2
        for line in cookies:
            assert "; secure" in line.lower(), line

    # Each request has its line, with its timings and the table it is about, sent to the
    # process that opened the table.
    deadline = time.monotonic() + 10
    timings = "/".join(["[-0-9]+"] * 5)  # %TR/%Tw/%Tc/%Tr/%Ta
    pattern = rf'tables/{opener} {timings} 200 .*table={re.escape(table)} "POST /api/tables/'
    while not re.search(pattern, log.read_text()):
        assert time.monotonic() < deadline, log.read_text()[-3000:]
        time.sleep(0.1)


@pytest.mark.postgres
def test_a_site_behind_the_rendered_configuration(
    pg_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    site = Site(tmp_path)
    first, checks = free_ports(3), free_ports(3)
    with ExitStack() as stack:
        processes: list[subprocess.Popen[str]] = []
        for number in range(1, 4):
            port, health = first + number - 1, checks + number - 1
            process = start_process(
                pg_url, tmp_path, f"s{number}", port, health, ("--trusted-proxy", "127.0.0.1")
            )
            stack.callback(process.wait, 30)
            stack.callback(process.kill)
            processes.append(process)
        for number, process in enumerate(processes, start=1):
            wait_ready(
                process, first + number - 1, checks + number - 1, tmp_path / f"s{number}.log"
            )

        for count in (2, 3):
            folder = tmp_path / f"haproxy-{count}"
            folder.mkdir()
            config = render(
                folder,
                *("--processes", str(count), "--base-port", str(first)),
                *("--health-base-port", str(checks)),
                *site.options(),
            )
            log = folder / "haproxy.log"
            with running(site, config, log):
                check_the_site(site, count, log)

        # Every process gone: the maintenance page, once HAProxy's checks see it (about 1 s).
        for process in processes:
            process.kill()
            process.wait(timeout=30)
        with running(site, config, log), httpx.Client(verify=False, timeout=30) as client:
            deadline = time.monotonic() + 15
            while (answer := client.get(f"https://127.0.0.1:{site.https}/")).status_code != 503:
                assert time.monotonic() < deadline, answer.status_code
                time.sleep(0.2)
            assert "fanfold is back in a moment" in answer.text
            assert answer.headers["retry-after"] == "30"
            assert client.get(f"https://127.0.0.1:{site.https}/api/games").status_code == 503


def test_acme_challenges_go_to_the_acme_client_on_plain_http_only(tmp_path: Path) -> None:
    site = Site(tmp_path)
    acme = free_port()
    token = tmp_path / "webroot" / ".well-known" / "acme-challenge" / "t0ken"
    token.parent.mkdir(parents=True)
    token.write_text("t0ken.thumbprint")
    config = render(tmp_path, "--processes", "1", "--acme-port", str(acme), *site.options())
    with ExitStack() as stack:
        client = subprocess.Popen(
            [sys.executable, "-m", "http.server", str(acme), "--bind", "127.0.0.1"],
            cwd=tmp_path / "webroot",
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        stack.callback(client.wait, 30)
        stack.callback(client.kill)
        stack.enter_context(running(site, config, tmp_path / "haproxy.log"))
        path = "/.well-known/acme-challenge/t0ken"
        deadline = time.monotonic() + 30
        while (answer := httpx.get(f"http://127.0.0.1:{site.http}{path}")).status_code != 200:
            assert time.monotonic() < deadline, answer.status_code  # the ACME client starting
            time.sleep(0.1)
        assert answer.text == "t0ken.thumbprint"
        assert httpx.get(f"http://127.0.0.1:{site.http}/").status_code == 301
        secure = httpx.get(f"https://127.0.0.1:{site.https}{path}", verify=False)
        assert secure.status_code == 503  # a process's path, and no process here


# ----------------------------------------------------------------- the counts


def resynchronised(site: Site) -> bool:
    """Whether the worker's ``peers`` section is done learning at start (its flags say both
    resyncs over: from the old worker, and from the remote peers, none here). HAProxy 2.6
    hands its counts to a new worker only once that is so (fixed in later versions)."""
    flags = re.search(r"flags=0x([0-9a-f]+)", site.ask("show peers"))
    return flags is not None and int(flags[1], 16) & 0x3 == 0x3


def worker(site: Site) -> int:
    """The process id of the worker answering on the stats socket."""
    found = re.search(r"^Pid: (\d+)$", site.ask("show info"), re.M)
    assert found is not None
    return int(found[1])


def test_the_counts_and_the_tables_places_outlive_a_reload(tmp_path: Path) -> None:
    site = Site(tmp_path)
    config = render(tmp_path, "--processes", "1", "--request-rate", "20", *site.options())
    log = tmp_path / "haproxy.log"
    url = f"https://127.0.0.1:{site.https}/metrics"  # refused (403) when not over a limit
    with running(site, config, log) as master:
        deadline = time.monotonic() + 15
        while not resynchronised(site):
            assert time.monotonic() < deadline, site.ask("show peers")
            time.sleep(0.2)
        old = worker(site)
        with httpx.Client(verify=False, timeout=10) as client:
            statuses = [client.get(url).status_code for _ in range(25)]
            assert statuses == [403] * 20 + [429] * 5
            assert client.get(url).headers["retry-after"] == "10"
        # Where a table went last (here set by hand: s1 is the backend's server 1).
        assert site.ask("set table tables key Xc3k9aP2qLmT.s2 data.server_id 1").strip() == ""

        # The reload (Debian's `systemctl reload haproxy`): a new worker, with the counts.
        before = log.read_text().count("Loading success")
        master.send_signal(signal.SIGUSR2)
        deadline = time.monotonic() + 15
        while log.read_text().count("Loading success") == before:
            assert master.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        assert worker(site) != old
        with httpx.Client(verify=False, timeout=10) as client:
            assert client.get(url).status_code == 429  # still over the limit
        table = site.ask("show table per_client")
        rate = re.search(r"key=::ffff:127\.0\.0\.1 .*http_req_rate\(10000\)=(\d+)", table)
        assert rate is not None, table
        assert int(rate[1]) > 20, table
        places = site.ask("show table tables")
        assert re.search(r"key=Xc3k9aP2qLmT\.s2 .*server_id=1\b", places), places
        # Another client is not refused.
        transport = httpx.HTTPTransport(local_address="127.0.0.2", verify=False)
        with httpx.Client(transport=transport, timeout=10) as other:
            assert other.get(url).status_code == 403


# ------------------------------------------------------ no hand-over back after a restart


def served_by(log: Path, table: str) -> list[str]:
    """The server of each request about ``table`` in HAProxy's log, in order."""
    pattern = rf" tables/(\S+) .* table={re.escape(table)} \""
    return re.findall(pattern, log.read_text())


def server_up(site: Site, name: str) -> bool:
    """Whether HAProxy's checks hold ``tables/NAME`` up (``show stat``)."""
    for line in site.ask("show stat").splitlines():
        fields = line.split(",")
        if fields[:2] == ["tables", name]:
            return fields[17] == "UP"
    raise AssertionError(f"no server tables/{name}")


def open_table_of(client: httpx.Client, name: str) -> tuple[str, str]:
    """A table opened through HAProxy by the process named ``name``: its id and token."""
    for _ in range(20):
        opened = client.post("/api/tables", json={"game": "morris", "seats": ["you", "random"]})
        assert opened.status_code == 200, opened.text
        if opened_by(opened.json()["table"]) == name:
            return opened.json()["table"], opened.json()["token"]
    raise AssertionError(f"{name} opened none of 20 tables")


def wait_for(log: Path, table: str, count: int) -> list[str]:
    """The servers of the first ``count`` requests about ``table`` once logged."""
    deadline = time.monotonic() + 10
    while len(servers := served_by(log, table)) < count:
        if time.monotonic() > deadline:
            print("\n".join(line for line in log.read_text().splitlines() if table in line))
            raise AssertionError(f"{count} requests about {table} logged: {servers}")
        time.sleep(0.1)
    return servers


@pytest.mark.postgres
def test_a_table_stays_with_its_stand_in_when_its_opener_is_back(
    pg_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    site = Site(tmp_path)
    first, checks = free_ports(2), free_ports(2)
    config = render(
        tmp_path,
        *("--processes", "2", "--base-port", str(first), "--health-base-port", str(checks)),
        *site.options(),
    )
    log = tmp_path / "haproxy.log"
    proxy = ("--trusted-proxy", "127.0.0.1")
    with ExitStack() as stack:
        processes: dict[str, subprocess.Popen[str]] = {}
        for number in (1, 2):
            name, port, health = f"s{number}", first + number - 1, checks + number - 1
            processes[name] = start_process(pg_url, tmp_path, name, port, health, proxy)
            stack.callback(processes[name].wait, 30)
            stack.callback(processes[name].kill)
        for number in (1, 2):
            name, port, health = f"s{number}", first + number - 1, checks + number - 1
            wait_ready(processes[name], port, health, tmp_path / f"{name}.log")
        stack.enter_context(running(site, config, log))
        client = stack.enter_context(
            httpx.Client(base_url=f"https://127.0.0.1:{site.https}", verify=False, timeout=30)
        )
        deadline = time.monotonic() + 15
        while not (server_up(site, "s1") and server_up(site, "s2")):
            assert time.monotonic() < deadline, site.ask("show stat")
            time.sleep(0.1)

        # A table opened by s1 is played on s1.
        table, token = open_table_of(client, "s1")
        play(client, table, token, 1)
        assert set(served_by(log, table)) == {"s1"}

        # s1 stops (SIGTERM: it answers /ready with 503 until HAProxy's checks mark it down,
        # then closes its port, hands its tables over and exits): asked every 20 ms until it
        # is gone, the table answers 200 every time, first from s1, then from s2 (which asks
        # s1 for it; the stick table then names s2), never from s1 again.
        before = len(served_by(log, table))
        processes["s1"].send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 60
        statuses: list[int] = []
        while processes["s1"].poll() is None or len(statuses) < 20:
            assert time.monotonic() < deadline
            statuses.append(client.get(f"/api/tables/{table}").status_code)
            time.sleep(0.02)
        # Not one refused: no request meets a closed port or a table let go (a 503 or an
        # empty answer would be tried on s2: `retry-on` in the template).
        assert set(statuses) == {200}, statuses
        during = wait_for(log, table, before + statuses.count(200))[before:]
        assert "s2" in during, during
        moved = during.index("s2")
        assert set(during[:moved]) <= {"s1"}, during
        assert set(during[moved:]) == {"s2"}, during
        before = len(served_by(log, table))
        play(client, table, token, 1)
        assert wait_for(log, table, before + 1)[-1] == "s2"

        # s1 starts again under its name and HAProxy sees it up: the table stays on s2.
        processes["s1"] = start_process(pg_url, tmp_path, "s1", first, checks, proxy)
        stack.callback(processes["s1"].wait, 30)
        stack.callback(processes["s1"].kill)
        wait_ready(processes["s1"], first, checks, tmp_path / "s1.log")
        deadline = time.monotonic() + 15
        while not server_up(site, "s1"):
            assert time.monotonic() < deadline, site.ask("show stat")
            time.sleep(0.1)
        since = len(served_by(log, table))
        for _ in range(3):
            assert client.get(f"/api/tables/{table}").status_code == 200
        play(client, table, token, 1)  # (a game may end early: then a look only)
        after = wait_for(log, table, since + 4)[since:]
        assert set(after) == {"s2"}, after
        assert "handed over" not in (tmp_path / "s2.log").read_text()

        # A new table opened by s1 is played on s1, where it was opened.
        table, token = open_table_of(client, "s1")
        play(client, table, token, 1)
        assert set(wait_for(log, table, 2)) == {"s1"}
