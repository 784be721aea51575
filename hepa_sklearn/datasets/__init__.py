"""Datasets: C-MAPSS shipped with the package, the paper's other benchmarks read from a data home, simulated fleets."""

from ._batadal import fetch_batadal, load_batadal
from ._beijing import BEIJING_STATIONS, fetch_beijing, load_beijing
from ._catalog import EventDatasetDefaults, get_event_dataset
from ._chbmit import fetch_chbmit, load_chbmit
from ._cmapss import CMAPSS_SENSORS, cmapss_file, load_cmapss
from ._ettm1 import fetch_ettm1, load_ettm1
from ._event_dataset import ChronologicalSplit, EventDataset
from ._gecco import load_gecco
from ._home import fetch_file, get_data_home
from ._mba import fetch_mba, load_mba
from ._psm import load_psm
from ._simulated import SENSOR_SHAPES, make_fleet
from ._smap import load_smap
from ._tep import fetch_tep, load_tep
from ._vix import fetch_vix, load_vix
from ._weather import fetch_weather, load_weather

__all__ = [
    "BEIJING_STATIONS",
    "CMAPSS_SENSORS",
    "SENSOR_SHAPES",
    "ChronologicalSplit",
    "EventDataset",
    "EventDatasetDefaults",
    "cmapss_file",
    "fetch_batadal",
    "fetch_beijing",
    "fetch_chbmit",
    "fetch_ettm1",
    "fetch_file",
    "fetch_mba",
    "fetch_tep",
    "fetch_vix",
    "fetch_weather",
    "get_data_home",
    "get_event_dataset",
    "load_batadal",
    "load_beijing",
    "load_chbmit",
    "load_cmapss",
    "load_ettm1",
    "load_gecco",
    "load_mba",
    "load_psm",
    "load_smap",
    "load_tep",
    "load_vix",
    "load_weather",
    "make_fleet",
]
