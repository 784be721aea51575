"""Tests for the data home and for checksummed downloads, served from a loopback HTTP server."""

import gzip
import hashlib
import os
import socket
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from hepa_sklearn.datasets import _vix, fetch_file, get_data_home

CONTENT = b"DATE,OPEN,HIGH,LOW,CLOSE\n" + b"1/2/1990,17.24,17.24,17.24,17.24\n" * 50
DIGEST = hashlib.sha256(CONTENT).hexdigest()


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


@pytest.fixture
def server(tmp_path):
    """Serve ``tmp_path / "served"`` on 127.0.0.1; yields (base URL, served directory)."""
    served = tmp_path / "served"
    served.mkdir()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(_QuietHandler, directory=str(served)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/", served
    httpd.shutdown()
    httpd.server_close()
    thread.join()


def _closed_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _leftovers(folder):
    return sorted(path.name for path in Path(folder).iterdir()) if Path(folder).exists() else []


def test_get_data_home_argument_environment_and_default(tmp_path, monkeypatch):
    explicit = tmp_path / "explicit" / "home"
    assert get_data_home(explicit) == str(explicit)
    assert explicit.is_dir()

    monkeypatch.setenv("HEPA_DATA_HOME", str(tmp_path / "from_env"))
    assert get_data_home() == str(tmp_path / "from_env")
    assert (tmp_path / "from_env").is_dir()
    # an explicit argument wins over the environment
    assert get_data_home(explicit) == str(explicit)

    monkeypatch.delenv("HEPA_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    assert get_data_home() == str(tmp_path / "user" / "hepa_sklearn_data")
    assert (tmp_path / "user" / "hepa_sklearn_data").is_dir()


def test_fetch_plain_file(server, tmp_path):
    base, served = server
    (served / "data.csv").write_bytes(CONTENT)
    target = tmp_path / "home" / "VIX" / "data.csv"
    assert fetch_file(base + "data.csv", target, DIGEST) == target
    assert target.read_bytes() == CONTENT
    assert _leftovers(target.parent) == ["data.csv"]


def test_fetch_compresses_into_gz_and_checks_uncompressed_digest(server, tmp_path):
    base, served = server
    (served / "data.csv").write_bytes(CONTENT)
    target = tmp_path / "home" / "data.csv.gz"
    fetch_file(base + "data.csv", target, DIGEST.upper())
    assert gzip.decompress(target.read_bytes()) == CONTENT


def test_fetch_gz_source_checks_uncompressed_digest(server, tmp_path):
    base, served = server
    (served / "data.csv.gz").write_bytes(gzip.compress(CONTENT, compresslevel=1))
    target = tmp_path / "home" / "data.csv.gz"
    fetch_file(base + "data.csv.gz", target, DIGEST)
    assert gzip.decompress(target.read_bytes()) == CONTENT


def test_existing_file_is_not_downloaded_again(tmp_path):
    target = tmp_path / "data.csv"
    target.write_bytes(b"local copy")
    url = f"http://127.0.0.1:{_closed_port()}/data.csv"
    assert fetch_file(url, target, DIGEST) == target
    assert target.read_bytes() == b"local copy"


def test_wrong_checksum_raises_and_leaves_nothing(server, tmp_path):
    base, served = server
    (served / "data.csv").write_bytes(CONTENT)
    target = tmp_path / "home" / "data.csv"
    wrong = "0" * 64
    with pytest.raises(ValueError, match=f"{DIGEST}.*expected {wrong}"):
        fetch_file(base + "data.csv", target, wrong)
    assert _leftovers(target.parent) == []


def test_missing_on_server_raises_oserror_naming_file_folder_and_url(server, tmp_path):
    base, _ = server
    target = tmp_path / "home" / "absent.csv"
    with pytest.raises(OSError) as info:
        fetch_file(base + "absent.csv", target, DIGEST)
    message = str(info.value)
    assert "absent.csv" in message and str(target.parent) in message
    assert base + "absent.csv" in message and "404" in message
    assert _leftovers(target.parent) == []


def test_unreachable_server_raises_oserror(tmp_path):
    url = f"http://127.0.0.1:{_closed_port()}/data.csv"
    target = tmp_path / "home" / "data.csv"
    with pytest.raises(OSError, match="data.csv") as info:
        fetch_file(url, target, DIGEST)
    assert url in str(info.value) and str(target.parent) in str(info.value)
    assert _leftovers(target.parent) == []


def test_download_if_missing_false_raises_file_not_found(tmp_path):
    url = f"http://127.0.0.1:{_closed_port()}/data.csv"
    target = tmp_path / "home" / "data.csv"
    with pytest.raises(FileNotFoundError) as info:
        fetch_file(url, target, DIGEST, download_if_missing=False)
    message = str(info.value)
    assert "data.csv" in message and str(target.parent) in message and url in message
    assert "download_if_missing=False" in message
    assert not target.parent.exists()


def test_fetch_vix_downloads_verifies_and_loads(server, tmp_path, monkeypatch):
    base, served = server
    # ten days, CLOSE crossing 25 from below on the sixth
    days = [
        f"1/{day}/1990,{close},{close},{close},{close}"
        for day, close in zip(range(2, 12), [20] * 5 + [26] * 5, strict=True)
    ]
    csv = "\n".join(["DATE,OPEN,HIGH,LOW,CLOSE", *days, ""]).encode()
    (served / "VIX_History.csv").write_bytes(csv)
    monkeypatch.setattr(_vix, "URL", base + "VIX_History.csv")
    monkeypatch.setattr(_vix, "SHA256", hashlib.sha256(csv).hexdigest())
    home = tmp_path / "home"
    data = _vix.fetch_vix(data_home=home, context_length=4, min_history=1)
    assert gzip.decompress((home / "VIX" / "VIX_History.csv.gz").read_bytes()) == csv
    assert data.frame["event"].to_numpy().nonzero()[0].tolist() == [5]

    # a second call finds the file and needs no server
    monkeypatch.setattr(_vix, "URL", f"http://127.0.0.1:{_closed_port()}/VIX_History.csv")
    again = _vix.fetch_vix(data_home=home, download_if_missing=False, context_length=4, min_history=1)
    assert len(again.frame) == 10


def test_fetch_without_download_names_the_fetcher_source(tmp_path):
    with pytest.raises(FileNotFoundError) as info:
        _vix.fetch_vix(data_home=tmp_path, download_if_missing=False)
    message = str(info.value)
    assert "VIX_History.csv.gz" in message and os.path.join(str(tmp_path), "VIX") in message
    assert _vix.URL in message


def test_loader_without_file_says_where_to_put_it_and_how_to_fetch(tmp_path):
    with pytest.raises(FileNotFoundError) as info:
        _vix.load_vix(data_home=tmp_path)
    message = str(info.value)
    assert "VIX_History.csv.gz (or VIX_History.csv)" in message
    assert os.path.join(str(tmp_path), "VIX") in message
    assert "fetch_vix" in message and _vix.URL in message


def test_a_data_home_that_is_not_a_usable_folder_is_refused_naming_it(tmp_path, monkeypatch):
    a_file = tmp_path / "data.txt"
    a_file.write_text("not a folder")
    with pytest.raises(ValueError, match=r"data_home names .*data.txt, which is a file, not a folder"):
        get_data_home(a_file)
    monkeypatch.setenv("HEPA_DATA_HOME", str(a_file))
    with pytest.raises(ValueError, match=r"the environment variable HEPA_DATA_HOME names .*data.txt, which is a file"):
        get_data_home()
    with pytest.raises(ValueError, match=r"which cannot be created as a folder"):
        get_data_home(a_file / "inside")
    with pytest.raises(ValueError, match=r"data_home is empty"):
        get_data_home("  ")
    with pytest.raises(TypeError, match=r"data_home must be a folder name \(str or path-like\), got int"):
        get_data_home(3)
