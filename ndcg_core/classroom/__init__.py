"""The live classroom: rooms a teacher opens and students join from their phones, four activities, and the
class's answers added up. ``rules`` and ``activities`` hold the rules and the numbers (from ndcg_core);
``storage`` keeps everything in SQLite or PostgreSQL through SQLAlchemy, one repository per concern (rooms,
students, answers, lessons) over one engine. No Streamlit here."""
