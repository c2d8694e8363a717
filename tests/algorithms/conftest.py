"""Fixtures of the algorithm tests: a small project-own Persian news page; both extraction cores."""
from pathlib import Path

import pytest

from mcecrawl.algorithms import profile_impl

DATA = Path(__file__).parent / "data"
# Sentences of the fixture's article body (reviewed by hand) and of its boilerplate.
ARTICLE = ("بارش برف سنگین از بامداد امروز در تهران", "سازمان هواشناسی", "شهرداری تهران اعلام کرد",
           "پلیس راهور نیز از شهروندان خواست")
BOILERPLATE = ("صفحه اصلی", "خبرهای مرتبط", "هشدار نارنجی", "کلیه حقوق محفوظ است")


@pytest.fixture(scope="session")
def fa_page() -> bytes:
    return (DATA / "fa_article.html").read_bytes()


@pytest.fixture(scope="session")
def fa_minified(fa_page) -> str:
    """The same page minified into one line (as many modern sites serve it)."""
    return "".join(line.strip() for line in fa_page.decode("utf-8").splitlines())


@pytest.fixture(autouse=True, params=profile_impl.IMPLEMENTATIONS)
def implementation(request):
    """Every algorithm test runs on the compiled core and on the reference (profile_impl)."""
    if request.param not in profile_impl.available():
        pytest.skip(f"the {request.param} extraction core is not built here ({profile_impl.describe()}); "
                    "`pip install -e .` with Cython and a C compiler builds it")
    previous = profile_impl.current()
    profile_impl.use(request.param)
    yield request.param
    profile_impl.use(previous)
