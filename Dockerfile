# The production image: the same commands as the README's "Production without Docker".
# The base image by exact tag and digest (CONTRIBUTING.md "Dependencies" says how to move both).
FROM python:3.11.14-slim-bookworm@sha256:65a93d69fa75478d554f4ad27c85c1e69fa184956261b4301ebaf6dbb0a3543d
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
# Exactly the locked versions, each file checked against its hash, then the project without
# dependencies of its own choosing.
COPY requirements/production.txt ./requirements/
RUN pip install --no-cache-dir --require-hashes -r requirements/production.txt
COPY pyproject.toml README.md ./
COPY config ./config
COPY server ./server
COPY games ./games
COPY accounts ./accounts
COPY telemetry ./telemetry
RUN pip install --no-cache-dir --no-deps .
COPY . .
# collectstatic needs settings but no database or secret of the real deployment.
RUN DEBUG=0 SECRET_KEY=build-only-not-used-at-runtime-0123456789abcdef-0123456789 \
    python manage.py collectstatic --noinput --verbosity 0
RUN useradd --create-home cards && chown -R cards /app
USER cards
EXPOSE 8000
CMD ["python", "manage.py", "serve", "--host", "0.0.0.0", "--port", "8000"]
