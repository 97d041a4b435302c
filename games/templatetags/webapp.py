from django import template

from games.webapp import javascript_catalog_url

register = template.Library()
register.simple_tag(javascript_catalog_url)
