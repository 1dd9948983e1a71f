"""Start-up migrations: an empty database ends up with the same schema (constraint names
included) and version as running every migration (SQLite gets the models' tables at once,
stamped with the newest migration); a database at the newest migration is left as it is; an
older one runs the migrations it lacks."""

from __future__ import annotations

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, inspect, text

from ziggurat.server.db import MIGRATIONS_DIR, Base, make_engine, migrate, migration_head, upgrade


def alembic_config(engine: Engine) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False))
    return config


def schema(engine: Engine) -> dict[str, object]:
    """Every table's columns (name, type, nullable; in any order: a migration adds a column
    last), primary key, indexes and foreign keys."""
    found: dict[str, object] = {}
    with engine.connect() as conn:
        seen = inspect(conn)
        for table in sorted(seen.get_table_names()):
            found[table] = (
                sorted((c["name"], str(c["type"]), c["nullable"]) for c in seen.get_columns(table)),
                seen.get_pk_constraint(table)["constrained_columns"],
                sorted(
                    (i["name"], tuple(i["column_names"]), bool(i["unique"])) for i in seen.get_indexes(table)
                ),
                sorted(
                    (f["referred_table"], tuple(f["constrained_columns"]))
                    for f in seen.get_foreign_keys(table)
                ),
            )
    return found


def version(engine: Engine) -> str | None:
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def test_the_head_read_from_the_scripts_is_alembics() -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    assert migration_head() == ScriptDirectory.from_config(config).get_current_head()


def test_an_empty_database_gets_the_schema_the_migrations_make(db_url: str) -> None:
    engine = make_engine(db_url)
    upgrade(engine)
    assert version(engine) == migration_head()
    with engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
    created = schema(engine)
    with engine.begin() as conn:
        for table in reversed(Base.metadata.sorted_tables):
            conn.execute(text(f'DROP TABLE "{table.name}"'))
        conn.execute(text("DROP TABLE alembic_version"))
    migrate(engine)  # every migration, one by one
    assert version(engine) == migration_head()
    assert schema(engine) == created
    engine.dispose()


def test_a_database_at_head_is_left_alone_and_an_older_one_migrates(db_url: str) -> None:
    engine = make_engine(db_url)
    with engine.begin() as conn:
        config = alembic_config(engine)
        config.attributes["connection"] = conn
        command.upgrade(config, "0005")
    upgrade(engine)  # runs 0005 -> head
    assert version(engine) == migration_head()
    with engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
    upgrade(engine)  # at head: nothing to do
    assert version(engine) == migration_head()
    engine.dispose()
