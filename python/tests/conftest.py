# SPDX-License-Identifier: Apache-2.0
"""Shared fixtures of the Python package tests (run by CTest, see
python/CMakeLists.txt): COSROD_CLI is the `cosrod` binary of the same build,
COSROD_SOURCE_DIR the source tree."""
import os

import pytest


@pytest.fixture(scope="session")
def source_dir():
    return os.environ.get("COSROD_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("COSROD_CLI")
    assert path and os.access(path, os.X_OK), "COSROD_CLI must name the cosrod binary"
    return path
