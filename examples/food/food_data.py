"""The food app's data: restaurants, menus and orders in one SQLite file.

The file is $FOOD_DB (default: food.db beside this module), created and seeded on first use;
several server processes may share it (WAL mode, writes in BEGIN IMMEDIATE transactions).
"""

from __future__ import annotations

import os
import sqlite3
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

DB = Path(os.environ.get("FOOD_DB") or Path(__file__).with_name("food.db"))
DELIVERY_FEE = 3000  # won
SERVED_AREAS = ("gangnam", "hongdae", "itaewon", "jamsil")

SCHEMA = """
CREATE TABLE IF NOT EXISTS restaurants (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, cuisine TEXT NOT NULL, area TEXT NOT NULL,
    price_level TEXT NOT NULL, rating REAL NOT NULL, open INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS menu_items (
    id TEXT PRIMARY KEY, restaurant_id TEXT NOT NULL REFERENCES restaurants(id), name TEXT NOT NULL,
    price INTEGER NOT NULL, available INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS orders (
    id TEXT PRIMARY KEY, restaurant_id TEXT NOT NULL, address TEXT NOT NULL, total INTEGER NOT NULL,
    status TEXT NOT NULL, placed_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS order_lines (
    order_id TEXT NOT NULL REFERENCES orders(id), item_id TEXT NOT NULL, name TEXT NOT NULL,
    quantity INTEGER NOT NULL, price INTEGER NOT NULL);
"""

RESTAURANTS = [
    # id, name, cuisine, area, price level, rating, open
    ("r_napoli", "Napoli Pizzeria", "pizza", "gangnam", "medium", 4.6, 1),
    ("r_slice", "Slice Lab", "pizza", "gangnam", "low", 4.1, 1),
    ("r_truffle", "Truffle & Crust", "pizza", "gangnam", "high", 4.8, 0),
    ("r_bibim", "Bibim House", "korean", "gangnam", "low", 4.4, 1),
    ("r_gogi", "Gogi Grill", "korean", "hongdae", "medium", 4.5, 1),
    ("r_ramen", "Ramen Alley", "japanese", "hongdae", "low", 4.3, 1),
    ("r_sushi", "Sushi Koma", "japanese", "itaewon", "high", 4.7, 1),
    ("r_taco", "Taco Itaewon", "mexican", "itaewon", "medium", 4.2, 1),
    ("r_curry", "Curry Garden", "indian", "jamsil", "medium", 4.0, 1),
    ("r_burger", "Burger Dock", "burgers", "jamsil", "low", 3.9, 1),
]
MENU = [
    # id, restaurant, name, price (won), available
    ("m_margherita", "r_napoli", "Margherita", 16000, 1), ("m_diavola", "r_napoli", "Diavola", 18000, 1),
    ("m_quattro", "r_napoli", "Quattro Formaggi", 19000, 0), ("m_cola", "r_napoli", "Cola", 2500, 1),
    ("m_pepperoni", "r_slice", "Pepperoni slice", 4500, 1), ("m_cheese", "r_slice", "Cheese slice", 4000, 1),
    ("m_truffle", "r_truffle", "Truffle pizza", 32000, 1),
    ("m_bibimbap", "r_bibim", "Bibimbap", 9000, 1), ("m_dolsot", "r_bibim", "Dolsot bibimbap", 11000, 1),
    ("m_samgyeop", "r_gogi", "Samgyeopsal for two", 28000, 1), ("m_galbi", "r_gogi", "Galbi", 32000, 1),
    ("m_tonkotsu", "r_ramen", "Tonkotsu ramen", 11000, 1), ("m_shoyu", "r_ramen", "Shoyu ramen", 10000, 1),
    ("m_omakase", "r_sushi", "Omakase set", 65000, 1), ("m_nigiri", "r_sushi", "Nigiri set", 38000, 1),
    ("m_alpastor", "r_taco", "Tacos al pastor", 12000, 1), ("m_burrito", "r_taco", "Burrito", 13000, 1),
    ("m_butter", "r_curry", "Butter chicken", 15000, 1), ("m_naan", "r_curry", "Garlic naan", 3000, 1),
    ("m_classic", "r_burger", "Classic burger", 9000, 1), ("m_fries", "r_burger", "Fries", 3500, 1),
]

_local = threading.local()


def connection() -> sqlite3.Connection:
    """This thread's connection (tools run in worker threads), created and seeded on first use."""
    conn = getattr(_local, "conn", None)
    if conn is None:
        DB.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(DB, timeout=30, isolation_level=None)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA busy_timeout=30000")
        with _write(conn):
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            if conn.execute("SELECT COUNT(*) FROM restaurants").fetchone()[0] == 0:
                conn.executemany("INSERT INTO restaurants VALUES (?, ?, ?, ?, ?, ?, ?)", RESTAURANTS)
                conn.executemany("INSERT INTO menu_items VALUES (?, ?, ?, ?, ?)", MENU)
        _local.conn = conn
    return conn


@contextmanager
def _write(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def write() -> Iterator[sqlite3.Connection]:
    """A write transaction on this thread's connection (one writer at a time, across processes)."""
    return _write(connection())


def search(query: str, area: str, price_level: str | None) -> list[sqlite3.Row]:
    words = [w for w in query.lower().split() if w]
    rows = connection().execute(
        "SELECT * FROM restaurants WHERE area = ? AND (? IS NULL OR price_level = ?) ORDER BY rating DESC",
        (area, price_level, price_level)).fetchall()
    return [r for r in rows if not words or any(w in f"{r['name']} {r['cuisine']}".lower() for w in words)]


def restaurant(restaurant_id: str) -> sqlite3.Row | None:
    return connection().execute("SELECT * FROM restaurants WHERE id = ?", (restaurant_id,)).fetchone()


def menu(restaurant_id: str) -> list[sqlite3.Row]:
    return connection().execute("SELECT * FROM menu_items WHERE restaurant_id = ? ORDER BY price",
                                (restaurant_id,)).fetchall()


def new_order(conn: sqlite3.Connection, restaurant_id: str, address: str, total: int,
              lines: list[tuple[str, str, int, int]]) -> tuple[str, str]:
    order_id = "ord_" + uuid.uuid4().hex[:10]
    placed = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    conn.execute("INSERT INTO orders VALUES (?, ?, ?, ?, 'placed', ?)", (order_id, restaurant_id, address, total,
                                                                          placed))
    conn.executemany("INSERT INTO order_lines VALUES (?, ?, ?, ?, ?)",
                     [(order_id, item_id, name, quantity, price) for item_id, name, quantity, price in lines])
    return order_id, placed


def order(order_id: str) -> tuple[sqlite3.Row | None, list[sqlite3.Row]]:
    conn = connection()
    row = conn.execute("SELECT * FROM orders WHERE id = ?", (order_id,)).fetchone()
    lines = conn.execute("SELECT * FROM order_lines WHERE order_id = ?", (order_id,)).fetchall() if row else []
    return row, lines


def count_orders() -> int:
    return connection().execute("SELECT COUNT(*) FROM orders").fetchone()[0]
